import { describe, expect, it } from 'vitest';
import { noticeSummary } from './notice-summary';

describe('noticeSummary: the opening words of a message, for the name of its Dismiss button', () => {
  it('ends at the first clause, and says it goes on', () => {
    expect(noticeSummary('census.csv was refused: the header does not fit the Census template')).toBe('census.csv was refused…');
    expect(noticeSummary('notes.txt is not a CSV export, so it is not uploaded; it stays in the watched folder.'))
      .toBe('notes.txt is not a CSV export…');
    expect(noticeSummary('Uploads stopped: no base URL')).toBe('Uploads stopped…');
  });

  it('keeps a short message whole', () => {
    expect(noticeSummary('resuming 2 uploads from the last run')).toBe('resuming 2 uploads from the last run');
    expect(noticeSummary('The disk is full.')).toBe('The disk is full');
  });

  it('passes over a first clause too short to say anything', () => {
    expect(noticeSummary('a, b.csv was refused: empty file')).toBe('a, b.csv was refused…');
  });

  it('cuts a long clause at a space', () => {
    const long = 'The watched folder cannot be read because the network drive it is on has gone away without warning';
    expect(noticeSummary(long)).toBe('The watched folder cannot be read because the network drive…');
    expect(noticeSummary(long).length).toBeLessThanOrEqual(61);
  });
});
