import { describe, expect, it } from 'vitest';
import type { AdminEvent } from './api';
import { buildInput, emptyForm, fieldTime, formFromEvent, problemField, sameForm } from './form';

const stored: AdminEvent = {
  id: 7,
  slug: 'town-hall-in-springfield',
  url: '/events/town-hall-in-springfield',
  status: 'published',
  title: 'Town hall in Springfield',
  description: '<p>Come and ask.</p>',
  kind: 'town_hall',
  start: '2026-12-10T18:00:00',
  end: '2026-12-10T20:00',
  timeZone: 'America/Chicago',
  venue: '12 Elm Street, Springfield, IL',
  online: false,
  videoLink: null,
  capacity: 20,
  rsvpDeadline: null,
  waitlist: true,
  startsAt: '2026-12-11T00:00:00Z',
  endsAt: '2026-12-11T02:00:00Z',
  started: false,
  cancelMessage: null,
  going: 12,
  waitlisted: 0,
  updatedAt: '2026-11-01T00:00:00Z',
};

const filled = {
  ...emptyForm('America/Chicago'),
  title: ' Petitioning at the market ',
  start: '2026-12-12T09:00',
  end: '2026-12-12T12:00',
  venue: ' Main St ',
};

describe('the form', () => {
  it('starts a new event where the party is, with a waitlist and no limit', () => {
    const form = emptyForm('America/Denver');
    expect(form).toMatchObject({ timeZone: 'America/Denver', kind: 'town_hall', waitlist: true, online: false, capacity: '', description: '' });
  });

  it('holds a stored event as its fields show it', () => {
    const form = formFromEvent(stored, (html) => html.trim());
    expect(form).toEqual({
      title: 'Town hall in Springfield',
      description: '<p>Come and ask.</p>',
      kind: 'town_hall',
      start: '2026-12-10T18:00',
      end: '2026-12-10T20:00',
      timeZone: 'America/Chicago',
      online: false,
      venue: '12 Elm Street, Springfield, IL',
      videoLink: '',
      capacity: '20',
      rsvpDeadline: '',
      waitlist: true,
    });
    expect(sameForm(form, { ...form })).toBe(true);
    expect(sameForm(form, { ...form, capacity: '21' })).toBe(false);
  });

  it('gives date-and-time fields minutes, and nothing for no time', () => {
    expect(fieldTime('2026-12-10T18:00:00')).toBe('2026-12-10T18:00');
    expect(fieldTime(null)).toBe('');
  });
});

describe('the body of a save', () => {
  it('trims, and sends empty optional fields as null', () => {
    expect(buildInput(filled)).toEqual({
      ok: true,
      input: {
        title: 'Petitioning at the market',
        description: '',
        kind: 'town_hall',
        start: '2026-12-12T09:00',
        end: '2026-12-12T12:00',
        timeZone: 'America/Chicago',
        venue: 'Main St',
        online: false,
        videoLink: null,
        capacity: null,
        rsvpDeadline: null,
        waitlist: true,
      },
    });
  });

  it('sends the video link only with an online event', () => {
    const link = 'https://meet.example.org/abc';
    const offline = buildInput({ ...filled, videoLink: link });
    expect(offline.ok && offline.input.videoLink).toBeNull();
    const online = buildInput({ ...filled, online: true, venue: '', videoLink: ` ${link} ` });
    expect(online.ok && online.input).toMatchObject({ online: true, venue: null, videoLink: link });
  });

  it('takes a capacity from 1 to 100,000', () => {
    const seats = (capacity: string) => {
      const built = buildInput({ ...filled, capacity });
      return built.ok ? built.input.capacity : built.field;
    };
    expect(seats('20')).toBe(20);
    expect(seats(' 1,500 ')).toBe(1500);
    expect(seats('100000')).toBe(100_000);
    expect(seats('')).toBeNull();
    for (const bad of ['0', '100001', '2.5', '-3', 'twenty', '1e3']) expect(seats(bad)).toBe('capacity');
  });

  it('sends the RSVP deadline when there is one', () => {
    const built = buildInput({ ...filled, rsvpDeadline: '2026-12-11T17:00' });
    expect(built.ok && built.input.rsvpDeadline).toBe('2026-12-11T17:00');
  });
});

describe('a refusal', () => {
  it('points at a field of the form, or at none', () => {
    expect(problemField('end')).toBe('end');
    expect(problemField('videoLink')).toBe('videoLink');
    expect(problemField('slug')).toBeNull();
    expect(problemField(undefined)).toBeNull();
  });
});
