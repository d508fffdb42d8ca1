// Marks as the tags they are saved as, so the editor looks like the published post.
import type { RenderLeafProps } from 'slate-react';

export function Leaf({ attributes, children, leaf }: RenderLeafProps) {
  let content = children;
  if (leaf.code) content = <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em]">{content}</code>;
  if (leaf.strikethrough) content = <s>{content}</s>;
  if (leaf.underline) content = <u>{content}</u>;
  if (leaf.italic) content = <em>{content}</em>;
  if (leaf.bold) content = <strong className="font-semibold">{content}</strong>;
  return <span {...attributes}>{content}</span>;
}
