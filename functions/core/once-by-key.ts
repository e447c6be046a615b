/**
 * Memoizes a read per key for one unit of work (a stream batch, a job's slice): what its items share, such as a
 * course's title or a creator's school, is read once however many items need it. A failed read is not kept: the
 * retry reads again.
 */
export const onceByKey = <T>(read: (key: string) => Promise<T>): ((key: string) => Promise<T>) => {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    const known = seen.get(key);
    if (known) return known;
    const reading = read(key);
    seen.set(key, reading);
    reading.catch(() => seen.delete(key));
    return reading;
  };
};
