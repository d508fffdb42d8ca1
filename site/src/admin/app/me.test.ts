import { describe, expect, it } from 'vitest';
import { type Capability, ROLES, TABS, can, chooseTab, grantableRoles, rank, roleLabel, visibleTabs } from './me';

/** The capabilities each role holds (docs/staff.md, "Roles and capabilities"). */
const CAPS: Record<string, Capability[]> = {
  owner: [
    'account',
    'submissions.read',
    'donations.read',
    'people.read',
    'posts.write_own',
    'posts.write_any',
    'erase',
    'mail.read',
    'users.manage',
    'users.reset_factors',
    'owners.manage',
    'service_tokens.manage',
    'events.manage',
    'events.attendees',
  ],
  administrator: [
    'account',
    'submissions.read',
    'donations.read',
    'people.read',
    'posts.write_own',
    'posts.write_any',
    'erase',
    'mail.read',
    'users.manage',
    'events.manage',
    'events.attendees',
  ],
  treasurer: ['account', 'people.read', 'donations.read', 'donations.export', 'donations.refund'],
  organizer: ['account', 'submissions.read', 'submissions.export', 'people.read', 'people.merge', 'events.manage', 'events.attendees'],
  editor: ['account', 'posts.write_own', 'posts.write_any', 'posts.publish_any'],
  author: ['account', 'posts.write_own', 'posts.publish_own'],
  contributor: ['account', 'posts.write_own'],
};
const me = (role: string) => ({ role, capabilities: CAPS[role] });

describe('role ranks', () => {
  it('run from the Owner down to the Contributor, unknown roles last', () => {
    expect(ROLES.map(rank)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(rank('owner')).toBeLessThan(rank('administrator'));
    expect(rank('treasurer')).toBeLessThan(rank('organizer'));
    expect(rank('author')).toBeLessThan(rank('contributor'));
    expect(rank('intern')).toBe(7);
    expect(roleLabel('treasurer')).toBe('Treasurer');
    expect(roleLabel('intern')).toBe('intern');
  });

  it('let someone grant their own rank and below, and only an Owner the Owner', () => {
    expect(grantableRoles(me('owner') as never)).toEqual([...ROLES]);
    expect(grantableRoles(me('administrator') as never)).toEqual(['administrator', 'treasurer', 'organizer', 'editor', 'author', 'contributor']);
    expect(grantableRoles(me('organizer') as never)).toEqual(['organizer', 'editor', 'author', 'contributor']);
    expect(grantableRoles(me('contributor') as never)).toEqual(['contributor']);
    // Rank alone never grants the Owner: owners.manage does.
    expect(grantableRoles({ role: 'owner', capabilities: ['users.manage'] })).not.toContain('owner');
  });
});

describe('capabilities to tabs', () => {
  it('open each role its own tabs, in the dashboard order', () => {
    expect(visibleTabs(me('owner'))).toEqual(TABS);
    expect(visibleTabs(me('administrator'))).toEqual(['contacts', 'volunteers', 'donations', 'monthly', 'newsletter', 'people', 'blogs', 'events', 'users']);
    expect(visibleTabs(me('treasurer'))).toEqual(['donations', 'monthly', 'people']);
    expect(visibleTabs(me('organizer'))).toEqual(['contacts', 'volunteers', 'newsletter', 'people', 'events']);
    expect(visibleTabs(me('editor'))).toEqual(['blogs']);
    expect(visibleTabs(me('author'))).toEqual(['blogs']);
    expect(visibleTabs(me('contributor'))).toEqual(['blogs']);
    expect(visibleTabs(null)).toEqual([]);
  });

  it('pick the tab asked for, the first open one, or say a typed-in tab is forbidden', () => {
    expect(chooseTab(null, me('organizer'))).toBe('contacts');
    expect(chooseTab('people', me('organizer'))).toBe('people');
    expect(chooseTab('events', me('organizer'))).toBe('events');
    expect(chooseTab('events', me('editor'))).toBe('forbidden');
    expect(chooseTab('donations', me('organizer'))).toBe('forbidden');
    expect(chooseTab('users', me('administrator'))).toBe('users');
    expect(chooseTab('users', me('treasurer'))).toBe('forbidden');
    expect(chooseTab('nonsense', me('treasurer'))).toBe('donations');
    expect(chooseTab(null, me('author'))).toBe('blogs');
    expect(chooseTab(null, { capabilities: ['account'] })).toBeNull();
  });

  it('can() holds only what was given', () => {
    expect(can(me('treasurer'), 'donations.read')).toBe(true);
    expect(can(me('treasurer'), 'erase')).toBe(false);
    expect(can(null, 'account')).toBe(false);
  });
});
