/** What the ordering of a workspace's state versions looks at: the declared serial, the lineage and the md5. */
export interface StateVersionMark {
  serial: number;
  lineage: string | null;
  md5: string | null;
}

/**
 * Why `next` may not follow `current` as its workspace's state (null when it may): a lower serial,
 * the same serial with other content, or another lineage. The same serial with the same bytes is a
 * state stored again, which changes nothing a writer could lose.
 */
export function successorConflict(current: StateVersionMark, next: StateVersionMark): string | null {
  if (next.serial < current.serial) return `serial ${next.serial} is lower than the current state version's serial ${current.serial}`;
  if (next.serial === current.serial && (!current.md5 || current.md5 !== next.md5)) {
    return `serial ${next.serial} is the current state version's serial and the state differs from it; a changed state must have a greater serial`;
  }
  if (next.lineage && current.lineage && next.lineage !== current.lineage) {
    return `lineage ${next.lineage} does not match the current state version's lineage ${current.lineage}`;
  }
  return null;
}
