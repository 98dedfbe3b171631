/**
 * A message's opening words, to name what belongs to it (its Dismiss button): "census.csv was refused" out of
 * "census.csv was refused: the header does not fit…". Enough to tell the messages apart when a screen reader lists
 * the buttons, short enough to be heard whole; the message itself is read beside it.
 */

/** Longer than this, the opening words are cut at a space. */
const LONGEST = 60;
/** A first clause shorter than this says too little ("a, b.csv was refused": not "a"): the next one is taken. */
const SHORTEST = 10;
/** Where a clause ends: the message goes on to say why, or what next. */
const CLAUSE_END = /[:;,.] /g;

export function noticeSummary(message: string): string {
  const text = message.trim().replace(/\s+/g, ' ');
  let end = text.length;
  for (const match of text.matchAll(CLAUSE_END)) {
    if (match.index >= SHORTEST) {
      end = match.index;
      break;
    }
  }
  if (end > LONGEST) {
    const space = text.lastIndexOf(' ', LONGEST);
    end = space >= SHORTEST ? space : LONGEST;
  }
  const summary = text.slice(0, end).replace(/[\s:;,.…]+$/, '');
  return end < text.length ? `${summary}…` : summary;
}
