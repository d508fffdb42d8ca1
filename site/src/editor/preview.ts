// Opening a preview in a new tab. Browsers allow a new tab only during the click itself,
// and the preview's address comes from the server a moment later: so the tab is opened
// blank at once and sent to the address when it arrives (or closed if none comes).

/** Opens a tab now and points it at the address `address` resolves to. Rejects (after
 *  closing the tab) when `address` does; resolves to false when the browser refused the tab. */
export async function openPreview(address: () => Promise<string>, open: typeof window.open = window.open.bind(window)): Promise<boolean> {
  const tab = open('', '_blank');
  try {
    const url = await address();
    if (!tab) return false;
    tab.location.href = url;
    return true;
  } catch (error) {
    tab?.close();
    throw error;
  }
}
