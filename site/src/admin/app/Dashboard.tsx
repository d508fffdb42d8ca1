import * as Tabs from '@radix-ui/react-tabs';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { blogsQuery } from '../features/blog/api';
import { contacts } from '../features/submissions/api';
import { donationsQuery } from '../features/donations/api';
import { newsletters } from '../features/submissions/api';
import { volunteers } from '../features/submissions/api';
import { useFocusWhenLost } from '../components/useFocusWhenLost';
import { ErasePerson } from '../features/erasure/ErasePerson';
import { DEFAULT_SORT, type SortKey, nextSort } from '../features/donations/format';
import { logout } from './session';
import { BlogsTab } from '../features/blog/BlogsTab';
import { ContactsTab } from '../features/submissions/ContactsTab';
import { DonationsTab } from '../features/donations/DonationsTab';
import { NewsletterTab } from '../features/submissions/NewsletterTab';
import { VolunteersTab } from '../features/submissions/VolunteersTab';

const TABS = ['contacts', 'volunteers', 'donations', 'newsletter', 'blogs'] as const;
type Tab = (typeof TABS)[number];

function isTab(value: string | null): value is Tab {
  return TABS.includes(value as Tab);
}

/** The unlocked admin screen: five tabs, each with its list's count. Every list loads at
 *  once (the counts need them) and stays cached until a change of ours or a logout. */
export function Dashboard() {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  // The open tab is in the address (?tab=blogs), so Back from the editor returns to it.
  const [params, setParams] = useSearchParams();
  const tab: Tab = isTab(params.get('tab')) ? (params.get('tab') as Tab) : 'contacts';
  const [sort, setSort] = useState(DEFAULT_SORT);

  const counts = {
    contacts: useQuery(contacts.query()).data?.length,
    volunteers: useQuery(volunteers.query()).data?.length,
    newsletter: useQuery(newsletters.query()).data?.length,
    blogs: useQuery(blogsQuery()).data?.length,
  };
  const donations = useQuery(donationsQuery(sort));

  const trigger = (value: Tab, label: string, count: number | undefined): ReactNode => (
    <Tabs.Trigger
      value={value}
      className="inline-flex min-h-11 items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold text-slate-700 hover:text-navy data-[state=active]:bg-white data-[state=active]:text-navy data-[state=active]:shadow-sm"
    >
      {label}
      {count !== undefined && <span className="rounded-full bg-navy/10 px-2 py-0.5 text-xs text-navy">{count}</span>}
    </Tabs.Trigger>
  );

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

      <Tabs.Root value={tab} onValueChange={(value) => setParams(value === 'contacts' ? {} : { tab: value }, { replace: true })} className="mt-8">
        <Tabs.List aria-label="Admin lists" className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
          {trigger('contacts', 'Contacts', counts.contacts)}
          {trigger('volunteers', 'Volunteers', counts.volunteers)}
          {trigger('donations', 'Donations', donations.data?.length)}
          {trigger('newsletter', 'Newsletter', counts.newsletter)}
          {trigger('blogs', 'Blogs', counts.blogs)}
        </Tabs.List>
        <Tabs.Content value="contacts" className="mt-6 focus-visible:outline-offset-4">
          <ContactsTab />
        </Tabs.Content>
        <Tabs.Content value="volunteers" className="mt-6 focus-visible:outline-offset-4">
          <VolunteersTab />
        </Tabs.Content>
        <Tabs.Content value="donations" className="mt-6 focus-visible:outline-offset-4">
          <DonationsTab query={donations} sort={sort} onSort={(key: SortKey) => setSort((s) => nextSort(s, key))} />
        </Tabs.Content>
        <Tabs.Content value="newsletter" className="mt-6 focus-visible:outline-offset-4">
          <NewsletterTab />
        </Tabs.Content>
        <Tabs.Content value="blogs" className="mt-6 focus-visible:outline-offset-4">
          <BlogsTab />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
