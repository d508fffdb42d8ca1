// A bench for the editor's browser test (e2e/editor.spec.ts), served by Vite's dev server
// only while that test runs; no page of the site. It mounts the editor as the blog editor
// page will, uploading through the real api with the token the test passes in the URL.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

import { RichTextEditor } from '../../src/editor';
import './harness.css';

const params = new URLSearchParams(location.search);
const token = params.get('token') ?? '';

async function uploadImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('image', file);
  const response = await fetch('/api/admin/blogs/upload-image', { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body });
  if (!response.ok) throw new Error(`${response.status}`);
  return ((await response.json()) as { url: string }).url;
}

function Bench() {
  const [html, setHtml] = useState('');
  const [count, setCount] = useState(0);
  return (
    <>
      <h1 className="mb-4 text-2xl font-bold">Editor test bench</h1>
      <p id="content-label" className="field-label mb-1">
        Content
      </p>
      <RichTextEditor
        id="content"
        labelledBy="content-label"
        describedBy="content-help"
        initialHtml={params.get('html') ?? ''}
        uploadImage={uploadImage}
        onChange={(next, characters) => {
          setHtml(next);
          setCount(characters);
        }}
      />
      <p id="content-help" className="mt-1 text-sm text-slate-700">
        <span data-testid="count">{count}</span> characters
      </p>
      <h2 className="mt-4 font-semibold">Saved HTML</h2>
      <pre data-testid="html" className="text-sm whitespace-pre-wrap">
        {html}
      </pre>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Bench />
  </StrictMode>,
);
