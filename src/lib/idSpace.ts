/** Event and insight ids are positive 32-bit integers per organization (extensions.md, "Ids"). */
export const MAX_ID = 2147483647;

/** Past this id an organization is warned about in the log, once per crossing. */
export const ID_WARNING_THRESHOLD = Math.floor(MAX_ID * 0.9);

/**
 * Whether handing out this id is the moment to warn. Ids are handed out without gaps (the
 * counter moves in the writing transaction), so exactly one write hands out this one.
 */
export const isIdWarning = (id: number): boolean => id === ID_WARNING_THRESHOLD;
