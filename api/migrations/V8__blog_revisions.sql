-- Blog posts over time (issue 26): a version that each change of a post counts up, so a
-- save made from an older version is refused instead of silently overwriting; and the
-- post's earlier versions, to look back at and restore.
ALTER TABLE blog_posts ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- reason: what made the revision: 'saved' (title, excerpt, content, featured image or its
-- alt text changed), 'published', 'unpublished' or 'restored'. The newest 50 of a post are
-- kept; they go with the post when it is deleted.
CREATE TABLE blog_revisions (
    id INTEGER PRIMARY KEY,
    post_id INTEGER NOT NULL REFERENCES blog_posts (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('saved', 'published', 'unpublished', 'restored')),
    title TEXT NOT NULL,
    excerpt TEXT,
    content TEXT NOT NULL,
    featured_image TEXT,
    featured_image_alt TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX blog_revisions_by_post ON blog_revisions (post_id, id);
