// Opening a preview in a new tab. The preview's address comes from the server a moment
// after the click; the tab is opened then, still within the click's user activation (a few
// seconds in every browser), with `noopener`: the preview tab gets no handle on this page and,
// unlike a tab opened with one, no copy of its sessionStorage, where the admin's token is.
// (The preview page is also served sandboxed, so it could not read that token anyway.)

/** Asks for the preview's address and opens it in a new tab. Rejects when `address` does.
 *  With `noopener` the browser never says whether it allowed the tab, so this cannot tell
 *  a blocked pop-up apart. */
export async function openPreview(address: () => Promise<string>, open: typeof window.open = window.open.bind(window)): Promise<void> {
  const url = await address();
  open(url, '_blank', 'noopener,noreferrer');
}
