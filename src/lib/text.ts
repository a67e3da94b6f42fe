/** Length in Unicode code points: what PostgreSQL's char_length counts, unlike JS `.length`. */
export function codePointLength(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** PostgreSQL text cannot hold NUL; refuse it up front instead of failing the insert. */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}
