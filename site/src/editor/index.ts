// What the blog editor page uses from the editor.
export {
  RichTextEditor,
  canonicalHtml,
  characterCount,
  countCharacters,
  IMAGE_TOO_LARGE,
  IMAGE_WRONG_TYPE,
  UPLOAD_FAILED,
  type RichTextEditorProps,
} from './RichTextEditor';
export { IMAGE_MAX_BYTES, IMAGE_TYPES, LIMITS } from './schema';
export { openPreview } from './preview';
