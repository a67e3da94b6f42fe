import { Markup } from '../../components/Markup.tsx';
import type { DestinationFormat } from '../../types.ts';
import './channelPreview.css';

/** The sample event the preview shows: what a typical notify event holds. */
const SAMPLE = {
  icon: '🚀',
  title: 'Deployed v2.4 to production',
  description: 'Rolled out to **eu-west** in 3 minutes',
  tags: [
    ['region', 'eu-west'],
    ['version', '2.4.0'],
  ],
} as const;
/** The other titles of the sample burst, newest first. */
const BURST_TITLES = ['💳 Payment received', '👋 New signup', `${SAMPLE.icon} ${SAMPLE.title}`];

/** Formats that show the description as written (their markup is not rendered by the service). */
const PLAIN_DESCRIPTION: ReadonlySet<DestinationFormat> = new Set(['text', 'googlechat']);

const SERVICE_NAMES: Partial<Record<DestinationFormat, string>> = {
  text: 'a chat (text message)',
  embed: 'a chat (embed)',
  email: 'the mail',
  telegram: 'Telegram',
  ntfy: 'ntfy',
  pushover: 'Pushover',
  teams: 'Microsoft Teams',
  googlechat: 'Google Chat',
  matrix: 'Matrix',
  gotify: 'Gotify',
};

interface PreviewMessage {
  heading: string;
  description: string | null;
  lines: string[];
  link: string;
}

/**
 * How a notify event reads once the chosen service shows it (extensions.md, "Channels"), from a
 * sample event, before anything is sent: the icon and title, the description, the tags as
 * `key: value` lines and the link back; with a group window, also how a burst reads. React
 * renders every piece as text, so nothing in it can become markup.
 */
export function ChannelPreview({
  format,
  groupWindowSeconds,
  projectId,
  projectName,
}: {
  format: DestinationFormat;
  groupWindowSeconds: number;
  projectId: string;
  projectName: string;
}) {
  const service = SERVICE_NAMES[format];
  if (!service) return null;
  const feed = `/app/p/${encodeURIComponent(projectId)}`;
  const single: PreviewMessage = {
    heading: `${SAMPLE.icon} ${SAMPLE.title}`,
    description: SAMPLE.description,
    lines: SAMPLE.tags.map(([key, value]) => `${key}: ${value}`),
    link: feed,
  };
  const burst: PreviewMessage = {
    heading: `${BURST_TITLES.length} events in ${projectName}`,
    description: null,
    lines: BURST_TITLES.map((title) => `- ${title}`),
    link: feed,
  };
  const grouped = groupWindowSeconds > 0;
  return (
    <section className="channel-preview span-2" aria-labelledby="channel-preview-title" data-testid="channel-preview">
      <h3 id="channel-preview-title" className="channel-preview-title">
        Preview in {service}
      </h3>
      <p className="muted small">
        A sample event as it will read{grouped ? `; the events of the ${groupWindowSeconds} s after a first one go as one message` : ''}.
      </p>
      <div className="channel-preview-messages">
        <PreviewBubble message={single} plain={PLAIN_DESCRIPTION.has(format)} label="One event" />
        {grouped && <PreviewBubble message={burst} plain label="A burst of 3 events" />}
      </div>
    </section>
  );
}

function PreviewBubble({ message, plain, label }: { message: PreviewMessage; plain: boolean; label: string }) {
  return (
    <figure className="channel-preview-message" data-testid="channel-preview-message">
      <figcaption className="muted small">{label}</figcaption>
      <p className="channel-preview-heading">
        <strong>{message.heading}</strong>
      </p>
      {message.description && <p className="channel-preview-description">{plain ? message.description : <Markup text={message.description} />}</p>}
      {message.lines.length > 0 && (
        <ul className="channel-preview-lines">
          {message.lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <a className="channel-preview-link" href={message.link} target="_blank" rel="noreferrer">
        Open in Eventlog
      </a>
    </figure>
  );
}
