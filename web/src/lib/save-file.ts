/** Hands the browser a file to save: the Blob behind a temporary link that is clicked, then let go. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked a moment later: some browsers read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/**
 * Hands the browser a file to save from a link (an export's presigned download, which names the file itself through
 * its Content-Disposition; `download` names it too where the link is on the app's own origin).
 */
export function saveLink(url: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
