import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { Card, CardList } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ExportButton } from '../../components/ExportButton';
import { ListStatus } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import { type BlogPost, type SavedPost, blogsExportUrl, blogsQuery, deleteBlog, publishBlog } from './api';
import { useItemAction } from '../../app/useItemAction';
import { can, useMe } from '../../app/me';
import { formatDay, formatExact } from '../../components/dates';
import { formatInZone, partyTimeZone } from './schedule';

const texts = {
  loading: 'Loading blogs...',
  error: 'Error loading blogs',
  empty: 'No blog posts yet',
};

/** Published; the warning, when there is one, says the public pages lag behind. */
function published(post: SavedPost) {
  toast({ title: 'Blog published successfully', description: post.warning });
}

export function BlogsTab() {
  const query = useQuery(blogsQuery());
  const publish = useItemAction(publishBlog, 'Failed to publish blog', published);
  const remove = useItemAction(deleteBlog, 'Failed to delete blog post');
  const item = (post: BlogPost): ItemProps => ({
    post,
    publishing: publish.isPending(post.id),
    deleting: remove.isPending(post.id),
    onPublish: () => publish.run(post.id),
    onDelete: () => remove.run(post.id),
  });
  return (
    <>
      <PanelHeader title="Blog Posts">
        <Link to="/admin/blog/new" className="btn btn-primary">
          Create New Blog
        </Link>
        <Link to="/admin/blog/new?kind=newsletter" className="btn btn-outline">
          Write a Newsletter
        </Link>
        <ExportButton url={blogsExportUrl} count={query.data?.length ?? 0} name="blogs.csv" />
      </PanelHeader>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data}>
        {(posts) => (
          <>
            {/* On a phone each post is a card, as in the other tabs; from 768 px a table. Only
                one of the two is displayed (and so in the accessibility tree). */}
            <div className="md:hidden">
              <CardList>
                {posts.map((post) => (
                  <BlogCard key={post.id} {...item(post)} />
                ))}
              </CardList>
            </div>
            <div className="mt-4 hidden overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm md:block">
              <table className="w-full min-w-[40rem] text-left text-sm">
                <thead className="bg-slate-100 text-ink">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Title
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Published Date
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Actions
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {posts.map((post) => (
                    <BlogRow key={post.id} {...item(post)} />
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </ListStatus>
    </>
  );
}

interface ItemProps {
  post: BlogPost;
  publishing: boolean;
  deleting: boolean;
  onPublish: () => void;
  onDelete: () => void;
}

function StatusBadge({ post }: { post: BlogPost }) {
  const { status } = post;
  if (post.kind === 'newsletter') {
    return <span className="rounded-full border border-navy px-3 py-1 text-xs font-semibold text-navy">Newsletter</span>;
  }
  return (
    <span className={`rounded-full px-3 py-1 text-xs font-semibold capitalize ${status === 'published' ? 'bg-navy text-white' : 'bg-slate-200 text-ink'}`}>
      {status}
    </span>
  );
}

function PublishedDate({ post }: { post: BlogPost }) {
  if (post.kind === 'newsletter') return <>E-mail only</>;
  if (post.status === 'scheduled' && post.publishDate) {
    return <time dateTime={post.publishDate}>Scheduled for {formatInZone(post.publishDate, partyTimeZone())}</time>;
  }
  return post.publishDate ? (
    <time dateTime={post.publishDate} title={formatExact(post.publishDate)}>
      {formatDay(post.publishDate)}
    </time>
  ) : (
    <>Not published</>
  );
}

function Actions({ post, publishing, deleting, onPublish, onDelete }: ItemProps) {
  const { me } = useMe();
  return (
    <div className="flex flex-wrap gap-2">
      <Link to={`/admin/blog/${post.id}`} className="btn btn-outline px-3" aria-label={`Edit ${post.title}`}>
        Edit
      </Link>
      {/* Only a published post is mailed (the e-mail links to its page), or a newsletter,
          which has no page. The page it opens also lists the earlier sends. */}
      {(post.status === 'published' || post.kind === 'newsletter') && can(me, 'mail.broadcast') && (
        <Link to={`/admin/blog/${post.id}/mail`} className="btn btn-outline px-3" aria-label={`Send ${post.title} by e-mail`}>
          Send by e-mail
        </Link>
      )}
      {post.status === 'draft' && post.kind !== 'newsletter' && (
        <ConfirmDialog
          trigger="Publish"
          triggerLabel={`Publish ${post.title}`}
          title="Publish blog post?"
          description={`“${post.title}” will be live on the website at once.`}
          confirm="Publish"
          onConfirm={onPublish}
          disabled={publishing}
          tone="primary"
        />
      )}
      <ConfirmDialog
        trigger="Delete"
        triggerLabel={`Delete ${post.title}`}
        title="Delete blog post?"
        description={`The blog post “${post.title}” will be deleted${post.status === 'published' ? ' and taken off the website' : ''}. This cannot be undone.`}
        confirm="Delete"
        onConfirm={onDelete}
        disabled={deleting}
      />
    </div>
  );
}

function BlogCard(props: ItemProps) {
  const { post } = props;
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold break-words text-ink">{post.title}</h3>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
            <StatusBadge post={post} />
            <span>
              <PublishedDate post={post} />
            </span>
          </p>
        </>
      }
    >
      <Actions {...props} />
    </Card>
  );
}

function BlogRow(props: ItemProps) {
  const { post } = props;
  return (
    <tr>
      <th scope="row" className="px-4 py-3 font-semibold break-words text-ink">
        {post.title}
      </th>
      <td className="px-4 py-3">
        <StatusBadge post={post} />
      </td>
      <td className="px-4 py-3 text-slate-700">
        <PublishedDate post={post} />
      </td>
      <td className="px-4 py-3">
        <Actions {...props} />
      </td>
    </tr>
  );
}
