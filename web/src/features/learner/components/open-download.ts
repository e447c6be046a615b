/** Goes to a signed download URL (its own module so tests can watch it: jsdom has no navigation). */
export function openDownload(url: string): void {
  window.location.assign(url);
}
