// Asks for a link's address; only the spec's schemes are accepted (spec §5).
import { LINK_SCHEMES, isInsertableUrl } from '../schema';
import { PromptDialog } from './PromptDialog';

export const LINK_SCHEME_ERROR = `Enter a full address starting with ${LINK_SCHEMES.slice(0, -1).join(', ')} or ${LINK_SCHEMES[LINK_SCHEMES.length - 1]}, such as https://example.org.`;

export function validateLink(url: string): string | null {
  if (url === '') return 'Enter the address to link to.';
  return isInsertableUrl(url) ? null : LINK_SCHEME_ERROR;
}

export type LinkDialogProps = {
  /** The current address when editing a link. */
  href: string | null;
  onSubmit: (href: string) => void;
  onRemove: () => void;
  onCancel: () => void;
  onClosed: () => void;
};

export function LinkDialog({ href, onSubmit, onRemove, onCancel, onClosed }: LinkDialogProps) {
  return (
    <PromptDialog
      title={href ? 'Edit link' : 'Insert link'}
      description="The address of the page, file or contact to link to. Selected text becomes the link; with nothing selected, the address itself is inserted."
      label="URL"
      inputType="url"
      initialValue={href ?? 'https://'}
      submitLabel={href ? 'Update link' : 'Insert link'}
      validate={validateLink}
      onSubmit={onSubmit}
      onCancel={onCancel}
      onClosed={onClosed}
      extra={href ? { label: 'Remove link', onClick: onRemove } : undefined}
    />
  );
}
