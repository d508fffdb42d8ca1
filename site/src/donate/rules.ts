// The donation form's rules as the page applies them. The values (presets, limits by year,
// fields, states, purposes and every text) come from generator/src/donations.rs through the
// island's props; this module only decides, from them, what the donor sees. The server checks
// all of it again, and more.
import type { FieldRule } from '../lib/forms';

export interface Choice {
  value: string;
  label: string;
}

export interface Notice {
  title: string;
  description: string;
}

/** generator/src/donations.rs `Texts`. */
export interface DonateTexts {
  invalidAmount: Notice;
  limitExceeded: Notice;
  citizenship: Notice;
  additionalInfo: Notice;
  additionalInfoAggregate: string;
  additionalInfoMonthly: string;
  missingInfo: Notice;
  confirmation: Notice;
  setupFailed: Notice;
  noClientSecret: string;
  paymentFailed: Notice;
  paymentError: Notice;
  success: string;
  summaryLoading: string;
  summaryError: string;
  unavailable: string;
  proceed: string;
  proceedPending: string;
  confirmPending: string;
  frequencyLegend: string;
  once: string;
  monthly: string;
  monthlyLine: string;
  historyShown: Notice;
  historyRefused: string;
}

/** generator/src/donations.rs `Props`. */
export interface DonateRules {
  presets: number[];
  defaultMax: number;
  itemizationThreshold: number;
  /** Dollars by calendar year; JSON keys are strings. */
  annualLimits: Record<string, number>;
  timeZone: string;
  fields: FieldRule[];
  states: Choice[];
  purposes: Choice[];
  texts: DonateTexts;
}

/** content/donate.yaml `form`. */
export interface DonateCopy {
  heading: string;
  amountLegend: string;
  customLabel: string;
  limitNote: string;
  donorLegend: string;
  employmentLegend: string;
  employmentHint: string;
  confirmLegend: string;
  citizenshipLabel: string;
  attestationsLabel: string;
  attestations: string[];
  legalNotice: string;
  taxNotice: string;
  reviewHeading: string;
  changeLabel: string;
  paymentHeading: string;
  paymentLoading: string;
  confirmLabel: string;
  thankYou: string;
  giveAgain: string;
  noscript: string;
}

/** A donor's year as the server reports it, in dollars. */
export interface Allowance {
  completed: number;
  pending: number;
  remaining: number;
}

/** The calendar year in the party's time zone: the year a gift made now counts toward. */
export function yearIn(timeZone: string, now: Date = new Date()): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(now));
}

/** The year's limit in dollars: the year's own, or the latest earlier one (as the server). */
export function limitFor(limits: Record<string, number>, year: number): number | null {
  const years = Object.keys(limits)
    .map(Number)
    .filter((y) => y <= year)
    .sort((a, b) => b - a);
  return years.length ? limits[String(years[0])] : null;
}

/** Dollars as typed ("25", "25.5", "1000.00") to whole cents; null unless at least one
 *  dollar with at most two decimals (the server's rule). Never through floating point. */
export function toCents(text: string): number | null {
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) && cents >= 100 ? cents : null;
}

/** "44,300" or "44,275.50", as the messages show dollars. */
export function formatDollars(cents: number): string {
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

/** "$25.00": an amount to pay, always with cents. */
export function formatAmount(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/** What the donor has filled in, as the checks read it. */
export interface Draft {
  /** The chosen amount in cents, or null when none or not valid. */
  amountCents: number | null;
  values: Record<string, string>;
  citizenship: boolean;
  attestations: boolean;
  /** The donor chose to give the amount every month (never without that choice). */
  monthly?: boolean;
}

/** The calendar month (1–12) and its day in the party's time zone. */
function localDate(timeZone: string, now: Date): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** How many gifts a monthly gift started now makes this calendar year, this one included
 *  (the server counts the same way). */
export function monthsLeft(timeZone: string, now: Date = new Date()): number {
  return 13 - localDate(timeZone, now).month;
}

/** "December 27, 2026": a month from today in the party's time zone, when a monthly gift
 *  started now is charged next (the 31st falls on a shorter month's last day). */
export function nextMonthly(timeZone: string, now: Date = new Date()): string {
  const { year, month, day } = localDate(timeZone, now);
  const [y, m] = month === 12 ? [year + 1, 1] : [year, month + 1];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const next = Date.UTC(y, m - 1, Math.min(day, last));
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(next);
}

/** "$25.00 every month, next on December 27, 2026, until you cancel". */
export function monthlyLine(texts: DonateTexts, amountCents: number, nextDate: string): string {
  return texts.monthlyLine.replace('$A', formatAmount(amountCents)).replace('{date}', nextDate);
}

/** A problem to show: the spec's title and sentence, and the field to mark and focus. */
export interface Problem extends Notice {
  field: string;
}

/** The most this donor may give now, in cents: what the server says is left, or the year's
 *  limit when that is not known. */
export function ceilingCents(rules: DonateRules, year: number, allowance: Allowance | null): number | null {
  if (allowance) return Math.round(allowance.remaining * 100);
  const limit = limitFor(rules.annualLimits, year);
  return limit === null ? null : limit * 100;
}

/** Whether the amount is over the year's limit or the donor's remaining allowance (the
 *  warning panel's rule, spec §9). */
export function isOverLimit(rules: DonateRules, year: number, amountCents: number | null, allowance: Allowance | null): boolean {
  if (amountCents === null) return false;
  const limit = limitFor(rules.annualLimits, year);
  if (limit !== null && amountCents > limit * 100) return true;
  return allowance !== null && amountCents > Math.round(allowance.remaining * 100);
}

/** The donor's gifts this year before this one, in cents (as far as the page knows). */
function earlierCents(allowance: Allowance | null): number {
  return allowance ? Math.round((allowance.completed + allowance.pending) * 100) : 0;
}

/** Whether occupation, employer and purpose are needed: the year's total with this gift
 *  passes the threshold; for a monthly gift, with every gift it makes this year
 *  (`monthsLeft` of them). */
export function needsEmployment(rules: DonateRules, amountCents: number | null, allowance: Allowance | null, monthsLeft = 1): boolean {
  return earlierCents(allowance) + (amountCents ?? 0) * Math.max(1, monthsLeft) > rules.itemizationThreshold * 100;
}

/** The "Donation Limit Exceeded" sentence for what is left. */
export function limitMessage(texts: DonateTexts, remainingCents: number): string {
  return texts.limitExceeded.description.replace('$X', `$${formatDollars(Math.max(0, remainingCents))}`);
}

export const EMPLOYMENT_FIELDS = ['donorOccupation', 'donorEmployer', 'contributionPurpose'] as const;

/** The first problem with `draft`, in the order the spec lists them (§5), or null.
 *  `months` is how many gifts a monthly gift makes this year (see `monthsLeft`). */
export function firstProblem(rules: DonateRules, year: number, draft: Draft, allowance: Allowance | null, months = 1): Problem | null {
  const { texts } = rules;
  if (draft.amountCents === null) return { ...texts.invalidAmount, field: 'amount' };
  const ceiling = ceilingCents(rules, year, allowance);
  if (ceiling !== null && draft.amountCents > ceiling) {
    return { title: texts.limitExceeded.title, description: limitMessage(texts, ceiling), field: 'amount' };
  }
  const missing = rules.fields.find((f) => f.required && !draft.values[f.name]?.trim());
  if (missing) return { ...texts.missingInfo, field: missing.name };
  if (!draft.citizenship) return { ...texts.citizenship, field: 'citizenshipConfirmed' };
  const gifts = draft.monthly ? months : 1;
  if (needsEmployment(rules, draft.amountCents, allowance, gifts)) {
    const gap = EMPLOYMENT_FIELDS.find((name) => !draft.values[name]?.trim());
    if (gap) {
      const earlier = earlierCents(allowance);
      const threshold = rules.itemizationThreshold * 100;
      const fill = (text: string) => ` ${text.replace('{year}', String(year)).replace('$T', `$${formatDollars(threshold)}`)}`;
      // As the server says it: the months to come, or earlier gifts, take it past $200.
      const aggregate =
        gifts > 1 && !needsEmployment(rules, draft.amountCents, allowance)
          ? fill(texts.additionalInfoMonthly)
          : earlier > 0 && draft.amountCents <= threshold
            ? fill(texts.additionalInfoAggregate)
            : '';
      return { title: texts.additionalInfo.title, description: texts.additionalInfo.description + aggregate, field: gap };
    }
  }
  if (!draft.attestations) return { ...texts.confirmation, field: 'attestationsConfirmed' };
  return null;
}

/** The request body (spec §3, plus the name's parts and the attestations). */
export function paymentRequest(draft: Draft, amountCents: number): Record<string, unknown> {
  const v = draft.values;
  const optional = (name: string) => v[name]?.trim() || undefined;
  return {
    amount: amountCents / 100,
    // Only the donor's own choice makes a gift monthly.
    ...(draft.monthly ? { frequency: 'monthly' } : {}),
    donorInfo: {
      donorName: `${v.donorFirstName?.trim() ?? ''} ${v.donorLastName?.trim() ?? ''}`.trim(),
      donorFirstName: v.donorFirstName?.trim(),
      donorLastName: v.donorLastName?.trim(),
      donorEmail: v.donorEmail?.trim(),
      donorAddress: v.donorAddress?.trim(),
      donorCity: v.donorCity?.trim(),
      donorState: v.donorState,
      donorZipCode: v.donorZipCode?.trim(),
      donorOccupation: optional('donorOccupation'),
      donorEmployer: optional('donorEmployer'),
      contributionPurpose: optional('contributionPurpose'),
      citizenshipConfirmed: draft.citizenship ? 'confirmed' : undefined,
      attestationsConfirmed: draft.attestations,
    },
  };
}
