// Money as the admin screens show it.

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** The API's `"1250.5"` or `"25.00"` as `$1,250.50`; anything unreadable is shown as sent. */
export function formatAmount(amount: string): string {
  const value = Number(amount);
  return amount.trim() !== '' && Number.isFinite(value) ? dollars.format(value) : amount;
}
