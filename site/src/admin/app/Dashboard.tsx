import * as Tabs from '@radix-ui/react-tabs';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useFocusWhenLost } from '../components/useFocusWhenLost';
import { blogsQuery } from '../features/blog/api';
import { BlogsTab } from '../features/blog/BlogsTab';
import { DonationsTab } from '../features/donations/DonationsTab';
import { useDonations } from '../features/donations/useDonations';
import { ErasePerson } from '../features/erasure/ErasePerson';
import { MailFailures } from '../features/mail/MailFailures';
import { plansQuery } from '../features/monthly/api';
import { MonthlyTab } from '../features/monthly/MonthlyTab';
import { peopleQuery } from '../features/people/api';
import { ContributorMatches } from '../features/people/ContributorMatches';
import { PeopleTab } from '../features/people/PeopleTab';
import { contactList, newsletterList, volunteerList } from '../features/submissions/lists';
import { SubmissionsTab } from '../features/submissions/SubmissionsTab';
import { logout } from './session';

const TABS = ['contacts', 'volunteers', 'donations', 'monthly', 'newsletter', 'people', 'blogs'] as const;
type Tab = (typeof TABS)[number];

function isTab(value: string | null): value is Tab {
  return TABS.includes(value as Tab);
}

/** The unlocked admin screen: seven tabs, each with its list's count. Every list loads at
 *  once (the counts need them) and stays cached until a change of ours or a logout. */
export function Dashboard() {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  // The open tab is in the address (?tab=blogs), so Back from the editor returns to it.
  const [params, setParams] = useSearchParams();
  // The tab is the page's own state, read from the address once: a switch shows at once
  // (Radix has already moved focus to the new tab, and a Tab pressed next must land in the
  // new panel), while the address follows as a navigation, which may render a moment later.
  const [tab, setTab] = useState<Tab>(() => (isTab(params.get('tab')) ? (params.get('tab') as Tab) : 'contacts'));

  const counts = {
    contacts: useQuery(contactList.resource.query()).data?.length,
    volunteers: useQuery(volunteerList.resource.query()).data?.length,
    newsletter: useQuery(newsletterList.resource.query()).data?.length,
    blogs: useQuery(blogsQuery()).data?.length,
    monthly: useQuery(plansQuery()).data?.length,
    people: useQuery(peopleQuery('', 0)).data?.total,
  };
  const donations = useDonations();
  const panels: { value: Tab; label: string; count: number | undefined; content: ReactNode }[] = [
    { value: 'contacts', label: 'Contacts', count: counts.contacts, content: <SubmissionsTab list={contactList} /> },
    { value: 'volunteers', label: 'Volunteers', count: counts.volunteers, content: <SubmissionsTab list={volunteerList} /> },
    { value: 'donations', label: 'Donations', count: donations.query.data?.length, content: <DonationsTab {...donations} review={<ContributorMatches />} /> },
    { value: 'monthly', label: 'Recurring', count: counts.monthly, content: <MonthlyTab /> },
    { value: 'newsletter', label: 'Newsletter', count: counts.newsletter, content: <SubmissionsTab list={newsletterList} /> },
    { value: 'people', label: 'People', count: counts.people, content: <PeopleTab /> },
    { value: 'blogs', label: 'Blogs', count: counts.blogs, content: <BlogsTab /> },
  ];

  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 ref={heading} tabIndex={-1} className="font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
            Admin Dashboard
          </h1>
          <p className="mt-2 text-slate-700">Manage contact submissions, volunteer signups, and donations</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <ErasePerson />
          <button type="button" className="btn btn-outline" onClick={() => logout('user')}>
            Logout
          </button>
        </div>
      </div>
      <MailFailures />

      <Tabs.Root
        value={tab}
        onValueChange={(value) => {
          setTab(value as Tab);
          // Not a new page: the scroll stays (the router's scroll restoration would otherwise
          // take a phone that had scrolled down to the tabs back to the top of the screen).
          setParams(value === 'contacts' ? {} : { tab: value }, { replace: true, preventScrollReset: true });
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
    </div>
  );
}
