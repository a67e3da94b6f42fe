// The words of the search blocks (docs/decisions/167-search-blocks.md). A block holds the distinct
// words of up to BLOCK_EVENTS events; search asks the block's trigram index for each word of the
// search text, then checks the whole text against the events themselves.
//
// Why this finds every match: a word is a maximal run of characters that are not ASCII
// punctuation, space or control characters. Case folding never turns such a character into one
// of those nor the reverse, so where an event's text contains the search text (case-insensitively),
// each word of the search text lies inside one word of the event, and the block's words contain
// it. The separator is therefore the same on both sides, and nothing else may decide it.
// eslint-disable-next-line no-control-regex -- control characters separate words, as spaces do
const SEPARATORS = /[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/;

/** Events per block: the more, the fewer repeated trigrams are written, the more events a hit rechecks. */
export const BLOCK_EVENTS = 64;

/** Shorter words give the trigram index nothing to look up; the recheck covers them. */
const SHORTEST_LOOKUP = 3;
/** Past this many words, the index's answer hardly narrows and each costs a lookup. */
const MOST_LOOKUPS = 8;

/** The distinct words of a text (a block's search documents joined), space-separated: what a block's index holds. */
export function blockWords(text: string): string {
  const words = new Set<string>();
  for (const word of text.split(SEPARATORS)) if (word !== '') words.add(word);
  return [...words].join(' ');
}

/**
 * ILIKE patterns that a block holding a match of `search` satisfies, longest words first. No
 * escaping is needed: the LIKE metacharacters are separators. Empty when no word is long enough
 * for the index, and then every block of the project is a candidate.
 */
export function blockPatterns(search: string): string[] {
  const words = [...new Set(search.split(SEPARATORS).filter((word) => word.length >= SHORTEST_LOOKUP))];
  return words
    .sort((a, b) => b.length - a.length)
    .slice(0, MOST_LOOKUPS)
    .map((word) => `%${word}%`);
}
