// The three submission lists as the admin sees them: their texts, and what a card shows.
// SubmissionsTab.tsx draws them all alike.
import { Detail } from '../../components/Card';
import { RelativeTime } from '../../components/RelativeTime';
import { type Contact, type NewsletterSignup, type Volunteer, contacts, newsletters, volunteers } from './api';
import type { SubmissionList } from './SubmissionsTab';
import { TextOptIn } from './TextOptIn';
import { TextOptOut } from './TextOptOut';

function Email({ address }: { address: string }) {
  return (
    <a href={`mailto:${address}`} className="text-navy underline underline-offset-2">
      {address}
    </a>
  );
}

export const contactList: SubmissionList<Contact> = {
  resource: contacts,
  title: 'Contact Submissions',
  texts: {
    loading: 'Loading contact submissions...',
    error: 'Error loading contact submissions',
    empty: 'No contact submissions yet',
  },
  exportName: 'contacts.csv',
  deleteFailure: 'Failed to delete contact submission',
  heading: (c) => c.subject,
  byline: (c) => [c.name, <Email address={c.email} />, <RelativeTime iso={c.createdAt} />],
  details: (c) => <p className="whitespace-pre-line break-words">{c.message}</p>,
  deletion: (c) => ({
    label: `Delete contact submission from ${c.name}`,
    title: 'Delete contact submission?',
    description: `The message “${c.subject}” from ${c.name} (${c.email}) will be deleted. This cannot be undone.`,
  }),
};

export const volunteerList: SubmissionList<Volunteer> = {
  resource: volunteers,
  title: 'Volunteer Signups',
  texts: {
    loading: 'Loading volunteer signups...',
    error: 'Error loading volunteer signups',
    empty: 'No volunteer signups yet',
  },
  exportName: 'volunteers.csv',
  deleteFailure: 'Failed to delete volunteer signup',
  heading: (v) => v.name,
  byline: (v) => [<Email address={v.email} />, <RelativeTime iso={v.createdAt} />],
  details: (v) => (
    <>
      {v.phone && <Detail label="Phone">{v.phone}</Detail>}
      <Detail label="ZIP">{v.zipCode}</Detail>
      {v.interests && <Detail label="Areas of Interest">{v.interests}</Detail>}
    </>
  ),
  deletion: (v) => ({
    label: `Delete volunteer signup of ${v.name}`,
    title: 'Delete volunteer signup?',
    description: `The volunteer signup of ${v.name} (${v.email}) will be deleted. This cannot be undone.`,
  }),
};

export const newsletterList: SubmissionList<NewsletterSignup> = {
  resource: newsletters,
  title: 'Newsletter Signups',
  texts: {
    loading: 'Loading newsletter signups...',
    error: 'Error loading newsletter signups',
    empty: 'No newsletter signups yet',
  },
  exportName: 'newsletters.csv',
  deleteFailure: 'Failed to delete newsletter signup',
  heading: (n) => n.email,
  byline: (n) => [<span className="font-semibold text-navy">{n.status}</span>, <RelativeTime iso={n.createdAt} />],
  details: (n) => (
    <>
      {n.phone && <Detail label="Phone">{n.phone}</Detail>}
      {n.texts && (
        <Detail label="Texts">
          {n.texts}
          {n.textsChangedAt && (
            <>
              {' '}
              <RelativeTime iso={n.textsChangedAt} />
            </>
          )}
        </Detail>
      )}
      <p>ZIP: {n.zipCode}</p>
      {n.confirmedAt && (
        <Detail label="Confirmed">
          <RelativeTime iso={n.confirmedAt} />
        </Detail>
      )}
      {n.unsubscribedAt && (
        <Detail label="Unsubscribed">
          <RelativeTime iso={n.unsubscribedAt} />
        </Detail>
      )}
    </>
  ),
  deletion: (n) => ({
    label: `Delete newsletter signup of ${n.email}`,
    title: 'Delete newsletter signup?',
    description: `The newsletter signup of ${n.email} will be deleted. This cannot be undone.`,
  }),
  actions: (n) => n.phone && (n.texts === 'Opted out' ? <TextOptIn phone={n.phone} /> : <TextOptOut phone={n.phone} />),
};
