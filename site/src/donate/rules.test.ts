import { describe, expect, it } from 'vitest';
import {
  type DonateRules,
  type Draft,
  ceilingCents,
  firstProblem,
  formatAmount,
  formatDollars,
  isOverLimit,
  limitFor,
  monthlyLine,
  monthsLeft,
  needsEmployment,
  nextMonthly,
  paymentRequest,
  toCents,
  yearIn,
} from './rules';

const notice = (title: string, description: string) => ({ title, description });
const field = (name: string, required = true) => ({ name, label: name, kind: 'text' as const, required, maxLength: 100 });

const rules: DonateRules = {
  presets: [25, 50, 100, 250, 500, 1000],
  defaultMax: 50000,
  itemizationThreshold: 200,
  annualLimits: { '2024': 41300, '2025': 44300, '2026': 44300 },
  timeZone: 'America/New_York',
  fields: [
    field('donorFirstName'),
    field('donorLastName'),
    field('donorEmail'),
    field('donorAddress'),
    field('donorCity'),
    field('donorState'),
    field('donorZipCode'),
    field('donorOccupation', false),
    field('donorEmployer', false),
    field('contributionPurpose', false),
  ],
  states: [{ value: 'IL', label: 'Illinois' }],
  purposes: [{ value: 'general_party_use', label: 'General party use' }],
  texts: {
    invalidAmount: notice('Invalid Amount', 'Please select or enter a valid donation amount.'),
    limitExceeded: notice('Donation Limit Exceeded', 'This amount would exceed your annual limit. You can donate up to $X more this year.'),
    citizenship: notice('Citizenship Confirmation Required', 'Please confirm your U.S. citizenship status as required by FEC regulations.'),
    additionalInfo: notice(
      'Additional Information Required',
      'For donations over $200, FEC regulations require occupation, employer, and contribution purpose.',
    ),
    additionalInfoAggregate: 'This gift brings your total for {year} above $T.',
    additionalInfoMonthly: 'Given every month, this gift brings your total for {year} above $T.',
    missingInfo: notice('Missing Information', 'Please fill in all required donor information fields.'),
    confirmation: notice('Confirmation Required', 'Please confirm the contribution statements above.'),
    setupFailed: notice('Payment Setup Failed', 'Failed to set up payment. Please try again.'),
    noClientSecret: 'No client secret received from payment service',
    paymentFailed: notice('Payment Failed', 'There was an error processing your payment.'),
    paymentError: notice('Payment Error', 'An unexpected error occurred. Please try again.'),
    success: 'Thank you for your donation!',
    summaryLoading: 'Checking donation status...',
    summaryError: 'Unable to load donation status. You can still proceed with your donation.',
    unavailable: 'Payment system is not available. Please check back later.',
    proceed: 'Proceed to Payment',
    proceedPending: 'Setting up payment...',
    confirmPending: 'Processing',
    frequencyLegend: 'How often',
    once: 'One time',
    monthly: 'Give monthly',
    monthlyLine: '$A every month, next on {date}, until you cancel',
    historyShown: { title: 'Your giving is shown on this browser', description: 'This page now shows what you have given this year.' },
    historyRefused: 'Your giving cannot be shown',
  },
};

const complete: Record<string, string> = {
  donorFirstName: 'Ada',
  donorLastName: 'Lovelace',
  donorEmail: 'ada@example.org',
  donorAddress: '1 Main St',
  donorCity: 'Springfield',
  donorState: 'IL',
  donorZipCode: '62701',
};

const draft = (over: Partial<Draft> = {}): Draft => ({ amountCents: 2500, values: { ...complete }, citizenship: true, attestations: true, ...over });

describe('amounts', () => {
  it('are whole cents of at least a dollar, typed with at most two decimals', () => {
    expect(toCents('25')).toBe(2500);
    expect(toCents('25.5')).toBe(2550);
    expect(toCents(' 19.99 ')).toBe(1999);
    expect(toCents('0.10')).toBeNull();
    expect(toCents('1.005')).toBeNull();
    expect(toCents('-5')).toBeNull();
    expect(toCents('1e3')).toBeNull();
    expect(toCents('')).toBeNull();
  });

  it('are shown as people write dollars', () => {
    expect(formatDollars(4_430_000)).toBe('44,300');
    expect(formatDollars(4_427_550)).toBe('44,275.50');
    expect(formatAmount(2500)).toBe('$25.00');
    expect(formatAmount(100_050)).toBe('$1,000.50');
  });
});

describe('the year and its limit', () => {
  it('is the calendar year in the party time zone', () => {
    // 11:30 p.m. on New Year's Eve in New York is already January 1 in UTC.
    expect(yearIn('America/New_York', new Date('2026-01-01T04:30:00Z'))).toBe(2025);
    expect(yearIn('America/New_York', new Date('2026-01-01T05:30:00Z'))).toBe(2026);
  });

  it('takes the latest earlier limit for a year not yet in site.yaml', () => {
    expect(limitFor(rules.annualLimits, 2024)).toBe(41300);
    expect(limitFor(rules.annualLimits, 2027)).toBe(44300);
    expect(limitFor(rules.annualLimits, 2020)).toBeNull();
  });

  it('caps a gift at what the donor has left, else at the year limit', () => {
    expect(ceilingCents(rules, 2026, null)).toBe(4_430_000);
    expect(ceilingCents(rules, 2026, { completed: 44000, pending: 0, remaining: 300 })).toBe(30_000);
    expect(isOverLimit(rules, 2026, 4_430_100, null)).toBe(true);
    expect(isOverLimit(rules, 2026, 30_100, { completed: 44000, pending: 0, remaining: 300 })).toBe(true);
    expect(isOverLimit(rules, 2026, 30_000, { completed: 44000, pending: 0, remaining: 300 })).toBe(false);
    expect(isOverLimit(rules, 2026, null, null)).toBe(false);
  });
});

describe('the first problem, in the spec order', () => {
  it('is none for a complete gift', () => {
    expect(firstProblem(rules, 2026, draft(), null)).toBeNull();
  });

  it('starts with the amount', () => {
    expect(firstProblem(rules, 2026, draft({ amountCents: null, citizenship: false }), null)).toMatchObject({
      title: 'Invalid Amount',
      field: 'amount',
    });
  });

  it('says how much is left when the gift is over it', () => {
    const p = firstProblem(rules, 2026, draft({ amountCents: 50_000 }), { completed: 43800, pending: 0, remaining: 499.5 });
    expect(p).toEqual({
      title: 'Donation Limit Exceeded',
      description: 'This amount would exceed your annual limit. You can donate up to $499.50 more this year.',
      field: 'amount',
    });
  });

  it('names the first missing field', () => {
    const values = { ...complete, donorCity: ' ', donorZipCode: '' };
    expect(firstProblem(rules, 2026, draft({ values }), null)).toMatchObject({ title: 'Missing Information', field: 'donorCity' });
  });

  it('then citizenship, then the extra questions, then the statements', () => {
    expect(firstProblem(rules, 2026, draft({ citizenship: false, attestations: false }), null)?.title).toBe('Citizenship Confirmation Required');
    expect(firstProblem(rules, 2026, draft({ amountCents: 25_000, attestations: false }), null)).toEqual({
      title: 'Additional Information Required',
      description: 'For donations over $200, FEC regulations require occupation, employer, and contribution purpose.',
      field: 'donorOccupation',
    });
    expect(firstProblem(rules, 2026, draft({ attestations: false }), null)).toMatchObject({ title: 'Confirmation Required' });
  });

  it('asks the extra questions when earlier gifts push the year past $200, and says so', () => {
    const earlier = { completed: 100, pending: 25, remaining: 44175 };
    expect(needsEmployment(rules, 7_500, earlier)).toBe(false);
    expect(needsEmployment(rules, 7_600, earlier)).toBe(true);
    const values = { ...complete, donorOccupation: 'Nurse' };
    expect(firstProblem(rules, 2026, draft({ amountCents: 15_000, values }), earlier)).toEqual({
      title: 'Additional Information Required',
      description:
        'For donations over $200, FEC regulations require occupation, employer, and contribution purpose. This gift brings your total for 2026 above $200.',
      field: 'donorEmployer',
    });
  });
});

describe('the request', () => {
  it('is the spec payload, with the name in parts too and blanks left out', () => {
    const body = paymentRequest(draft({ values: { ...complete, donorFirstName: ' Ada ', donorOccupation: '  ' } }), 2550);
    expect(body).toEqual({
      amount: 25.5,
      donorInfo: {
        donorName: 'Ada Lovelace',
        donorFirstName: 'Ada',
        donorLastName: 'Lovelace',
        donorEmail: 'ada@example.org',
        donorAddress: '1 Main St',
        donorCity: 'Springfield',
        donorState: 'IL',
        donorZipCode: '62701',
        donorOccupation: undefined,
        donorEmployer: undefined,
        contributionPurpose: undefined,
        citizenshipConfirmed: 'confirmed',
        attestationsConfirmed: true,
      },
    });
  });
});

describe('a monthly gift', () => {
  it('is only ever the donor’s choice: without it the request has no frequency', () => {
    expect(paymentRequest(draft(), 2500)).not.toHaveProperty('frequency');
    expect(paymentRequest(draft({ monthly: false }), 2500)).not.toHaveProperty('frequency');
    expect(paymentRequest(draft({ monthly: true }), 2500)).toMatchObject({ amount: 25, frequency: 'monthly' });
  });

  it('counts the gifts left in the party’s year, this one included', () => {
    expect(monthsLeft('America/New_York', new Date('2026-11-27T12:00:00Z'))).toBe(2);
    expect(monthsLeft('America/New_York', new Date('2026-01-01T12:00:00Z'))).toBe(12);
    // Still December 31st in New York at 02:00 UTC on New Year's Day.
    expect(monthsLeft('America/New_York', new Date('2027-01-01T02:00:00Z'))).toBe(1);
  });

  it('is next charged a month on, on the last day of a shorter month', () => {
    expect(nextMonthly('America/New_York', new Date('2026-11-27T12:00:00Z'))).toBe('December 27, 2026');
    expect(nextMonthly('America/New_York', new Date('2026-01-31T12:00:00Z'))).toBe('February 28, 2026');
    expect(nextMonthly('America/New_York', new Date('2026-12-15T12:00:00Z'))).toBe('January 15, 2027');
    expect(monthlyLine(rules.texts, 2500, 'December 27, 2026')).toBe('$25.00 every month, next on December 27, 2026, until you cancel');
  });

  it('asks the extra questions when the gifts it makes this year pass $200, and says so', () => {
    // $25 a month from March: ten gifts, $250.
    expect(needsEmployment(rules, 2500, null, 10)).toBe(true);
    expect(needsEmployment(rules, 2500, null, 2)).toBe(false);
    expect(firstProblem(rules, 2026, draft({ monthly: true }), null, 10)).toEqual({
      title: 'Additional Information Required',
      description:
        'For donations over $200, FEC regulations require occupation, employer, and contribution purpose. Given every month, this gift brings your total for 2026 above $200.',
      field: 'donorOccupation',
    });
    // The same $25 once needs nothing more.
    expect(firstProblem(rules, 2026, draft({ monthly: false }), null, 10)).toBeNull();
  });
});
