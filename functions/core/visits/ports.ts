/**
 * Marks that a visitor has already been counted (decision 0028): a view or a click counts once per visitor a day.
 * Each mark is a hash (core/visits/visitor-key.ts), never an address, and disappears by itself after `expiresAt`.
 */
export interface VisitMarks {
  /** Writes the mark unless it exists: true for the one write that made it (count then), false for every repeat. */
  markFirst(mark: string, expiresAt: Date): Promise<boolean>;
}
