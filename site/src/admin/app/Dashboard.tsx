import * as Tabs from '@radix-ui/react-tabs';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useFocusWhenLost } from '../components/useFocusWhenLost';
import { blogsQuery } from '../features/blog/api';
import { BlogsTab } from '../features/blog/BlogsTab';
import { DeployStatus } from '../features/deploy/DeployStatus';
import { SiteStatus } from '../features/deploy/SiteStatus';
import { DonationsTab } from '../features/donations/DonationsTab';
import { useDonations } from '../features/donations/useDonations';
import { ErasePerson } from '../features/erasure/ErasePerson';
import { eventsQuery } from '../features/events/api';
import { EventsTab } from '../features/events/EventsTab';
import { MailFailures } from '../features/mail/MailFailures';
import { plansQuery } from '../features/monthly/api';
import { MonthlyTab } from '../features/monthly/MonthlyTab';
import { peopleQuery } from '../features/people/api';
import { ContributorMatches } from '../features/people/ContributorMatches';
import { PeopleTab } from '../features/people/PeopleTab';
import { contactList, newsletterList, volunteerList } from '../features/submissions/lists';
import { SubmissionsTab } from '../features/submissions/SubmissionsTab';
import { usersQuery } from '../features/users/api';
import { UsersTab } from '../features/users/UsersTab';
import { Forbidden } from './Guard';
import { type Me, type Tab, can, chooseTab, visibleTabs } from './me';
import { logout } from './session';

/** The unlocked admin screen: the tabs the role opens, each with its list's count. */
export function Dashboard({ me }: { me: Me }) {
  const [params] = useSearchParams();
  const chosen = chooseTab(params.get('tab'), me);
  // A tab the role does not open, typed in or from an old link: said, and nothing is asked of
  // the server.
  if (chosen === 'forbidden') return <Forbidden />;
  return <Tabbed me={me} initial={chosen} />;
}

function Tabbed({ me, initial }: { me: Me; initial: Tab | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  // The open tab is in the address (?tab=blogs), so Back from the editor returns to it.
  const [, setParams] = useSearchParams();
  // The tab is the page's own state, read from the address once: a switch shows at once
  // (Radix has already moved focus to the new tab, and a Tab pressed next must land in the
  // new panel), while the address follows as a navigation, which may render a moment later.
  const [tab, setTab] = useState<Tab | null>(initial);
  const open = visibleTabs(me);
  const shown = (t: Tab) => open.includes(t);

  // Every open list loads at once (the counts need them) and stays cached until a change of
  // ours or a logout; a list the role does not open is never asked for.
  const counts = {
    contacts: useQuery({ ...contactList.resource.query(), enabled: shown('contacts') }).data?.length,
    volunteers: useQuery({ ...volunteerList.resource.query(), enabled: shown('volunteers') }).data?.length,
    newsletter: useQuery({ ...newsletterList.resource.query(), enabled: shown('newsletter') }).data?.length,
    blogs: useQuery({ ...blogsQuery(), enabled: shown('blogs') }).data?.length,
    events: useQuery({ ...eventsQuery(), enabled: shown('events') }).data?.events.length,
    monthly: useQuery({ ...plansQuery(), enabled: shown('monthly') }).data?.length,
    people: useQuery({ ...peopleQuery('', 0), enabled: shown('people') }).data?.total,
    users: useQuery({ ...usersQuery(), enabled: shown('users') }).data?.users.length,
  };
  const donations = useDonations(shown('donations'));
  const panels: { value: Tab; label: string; count: number | undefined; content: ReactNode }[] = [
    { value: 'contacts' as const, label: 'Contacts', count: counts.contacts, content: <SubmissionsTab list={contactList} /> },
    { value: 'volunteers' as const, label: 'Volunteers', count: counts.volunteers, content: <SubmissionsTab list={volunteerList} /> },
    {
      value: 'donations' as const,
      label: 'Donations',
      count: donations.query.data?.length,
      content: <DonationsTab {...donations} review={<ContributorMatches />} />,
    },
    { value: 'monthly' as const, label: 'Recurring', count: counts.monthly, content: <MonthlyTab /> },
    { value: 'newsletter' as const, label: 'Newsletter', count: counts.newsletter, content: <SubmissionsTab list={newsletterList} /> },
    { value: 'people' as const, label: 'People', count: counts.people, content: <PeopleTab /> },
    { value: 'blogs' as const, label: 'Blogs', count: counts.blogs, content: <BlogsTab /> },
    { value: 'events' as const, label: 'Events', count: counts.events, content: <EventsTab /> },
    { value: 'users' as const, label: 'Users', count: counts.users, content: <UsersTab me={me} /> },
  ].filter((p) => shown(p.value));

  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 ref={heading} tabIndex={-1} className="font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
            Admin Dashboard
          </h1>
          <p className="mt-2 text-slate-700">Manage contact submissions, volunteer signups, and donations</p>
          <p className="mt-1 text-sm text-slate-700">
            Signed in as {me.name || me.email} ({me.roleLabel})
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          {can(me, 'erase') && <ErasePerson />}
          {can(me, 'mail.suppressions') && (
            <Link to="/admin/suppressions" className="btn btn-outline">
              Suppression list
            </Link>
          )}
          <Link to="/admin/security" className="btn btn-outline">
            Security
          </Link>
          <button type="button" className="btn btn-outline" onClick={() => logout('user')}>
            Logout
          </button>
        </div>
      </div>
      {can(me, 'mail.read') && <MailFailures />}
      {can(me, 'posts.publish_own') && <SiteStatus />}
      {can(me, 'posts.publish_own') && <DeployStatus />}

      {tab && (
        <Tabs.Root
          value={tab}
          onValueChange={(value) => {
            setTab(value as Tab);
            // Not a new page: the scroll stays (the router's scroll restoration would otherwise
            // take a phone that had scrolled down to the tabs back to the top of the screen).
            setParams(value === open[0] ? {} : { tab: value }, { replace: true, preventScrollReset: true });
          }}
          className="mt-8"
        >
          <Tabs.List aria-label="Admin lists" className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
            {panels.map(({ value, label, count }) => (
              <Tabs.Trigger
                key={value}
                value={value}
                className="inline-flex min-h-11 items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold text-slate-700 hover:text-navy data-[state=active]:bg-white data-[state=active]:text-navy data-[state=active]:shadow-sm"
              >
                {label}
                {count !== undefined && <span className="rounded-full bg-navy/10 px-2 py-0.5 text-xs text-navy">{count}</span>}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {panels.map(({ value, content }) => (
            <Tabs.Content key={value} value={value} className="mt-6 focus-visible:outline-offset-4">
              {content}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
    </div>
  );
}
