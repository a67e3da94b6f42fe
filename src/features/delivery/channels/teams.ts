import { type Channel, JSON_HEADERS, bareUrl } from './channel.ts';
import { markupToMarkdown } from './markupRender.ts';
import { cut } from './message.ts';

/** Teams refuses cards over about 28 KB; a description is cut well below that. */
const MAX_DESCRIPTION = 8000;

/** A Microsoft Teams Workflows webhook URL: its signature (`sig`) stays in the query it came with. */
export const teams: Channel = {
  checkUrl(url, { allowPrivate }) {
    if (url.protocol !== 'https:' && !allowPrivate) return 'a teams url is the https address of a Teams Workflows webhook';
    return null;
  },
  request(message, url) {
    const body: unknown[] = [{ type: 'TextBlock', text: message.heading, weight: 'Bolder', size: 'Medium', wrap: true }];
    if (message.description) body.push({ type: 'TextBlock', text: cut(markupToMarkdown(message.description), MAX_DESCRIPTION), wrap: true });
    if (message.tags.length) body.push({ type: 'FactSet', facts: message.tags.map(([title, value]) => ({ title, value })) });
    const card = {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            version: '1.4',
            body,
            actions: [{ type: 'Action.OpenUrl', title: 'Open in Eventlog', url: message.link }],
          },
        },
      ],
    };
    // The whole URL, query included: the workflow's signature is part of its address.
    return { method: 'POST', url: `${bareUrl(url)}${url.search}`, headers: { ...JSON_HEADERS }, body: JSON.stringify(card) };
  },
};
