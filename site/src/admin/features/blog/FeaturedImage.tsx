// The post's featured image: a file chooser that checks type and size before uploading
// (spec §5), then a preview with the file name and "Remove Image". Every outcome is a
// toast with the spec's words; a failed upload clears the chooser.
import { type ChangeEvent, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { failureText } from '../../../lib/api';
import { IMAGE_MAX_BYTES, IMAGE_TOO_LARGE, IMAGE_TYPES, IMAGE_WRONG_TYPE, UPLOAD_FAILED } from '../../../editor';
import { isUnauthorized } from '../../app/client';

interface Props {
  id: string;
  image: string | null;
  name: string;
  upload: (file: File) => Promise<string>;
  onChange: (image: string | null, name: string) => void;
}

export function FeaturedImage({ id, image, name, upload, onChange }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const clearChooser = () => {
    if (input.current) input.current.value = '';
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) {
      clearChooser();
      toast({ variant: 'destructive', title: IMAGE_WRONG_TYPE });
      return;
    }
    if (file.size >= IMAGE_MAX_BYTES) {
      clearChooser();
      toast({ variant: 'destructive', title: IMAGE_TOO_LARGE });
      return;
    }
    setUploading(true);
    try {
      const url = await upload(file);
      onChange(url, file.name);
      toast({ title: `Image "${file.name}" uploaded successfully` });
    } catch (error) {
      if (!isUnauthorized(error)) toast({ variant: 'destructive', title: UPLOAD_FAILED, description: failureText(error, '') || undefined });
    } finally {
      // The chooser only picks; what the post has is shown below it.
      clearChooser();
      setUploading(false);
    }
  };

  return (
    <div>
      <label htmlFor={id} className="field-label">
        Featured Image
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        aria-describedby={`${id}-help`}
        disabled={uploading}
        onChange={onFile}
        className="mt-1 block w-full text-sm text-ink file:mr-3 file:min-h-11 file:rounded-md file:border-2 file:border-navy file:bg-white file:px-4 file:font-semibold file:text-navy hover:file:bg-navy hover:file:text-white"
      />
      <p id={`${id}-help`} className="mt-1 text-sm text-slate-700">
        JPEG, PNG, GIF or WebP, under 5 MB.
      </p>
      <p role="status" className={uploading ? 'mt-2 text-sm text-slate-700' : 'sr-only'}>
        {uploading ? 'Uploading image…' : ''}
      </p>
      {image && (
        <figure className="mt-3 flex flex-wrap items-center gap-4 rounded-md border border-slate-200 bg-slate-50 p-3">
          <img src={image} alt="Featured image preview" className="h-24 w-36 rounded object-cover" />
          <figcaption className="min-w-0 flex-1 text-sm break-all text-ink">{name}</figcaption>
          <button
            type="button"
            className="btn border-2 border-crimson px-3 text-crimson hover:bg-crimson hover:text-white"
            onClick={() => {
              onChange(null, '');
              // The button goes away with the image: keep the keyboard where it was.
              input.current?.focus();
            }}
          >
            Remove Image
          </button>
        </figure>
      )}
    </div>
  );
}
