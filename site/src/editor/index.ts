// What the blog editor page uses from the editor.
export { RichTextEditor, characterCount, countCharacters, IMAGE_TOO_LARGE, UPLOAD_FAILED, type RichTextEditorProps } from './RichTextEditor';
export { IMAGE_MAX_BYTES, IMAGE_TYPES, LIMITS } from './schema';
export { openPreview } from './preview';
