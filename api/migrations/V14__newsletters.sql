-- Plain newsletters: written in the blog's editor and kept with the posts (drafts, history,
-- images), but never published on the website; they are only mailed to the list. kind:
-- 'post' (the blog) or 'newsletter'.
ALTER TABLE blog_posts ADD COLUMN kind TEXT NOT NULL DEFAULT 'post' CHECK (kind IN ('post', 'newsletter'));
