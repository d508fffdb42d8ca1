// Renders islands to HTML for the generator: reads [{name, props}] (props as a JSON
// string) on stdin, writes a JSON list of HTML strings on stdout, in the same order.
// Usage: node render-islands.mjs path/to/ssr.js
import { pathToFileURL } from 'node:url';

const [entry] = process.argv.slice(2);
if (!entry) {
  console.error('usage: render-islands.mjs <ssr bundle>');
  process.exit(2);
}
const { renderIsland } = await import(pathToFileURL(entry).href);

let input = '';
for await (const chunk of process.stdin) input += chunk;

const html = JSON.parse(input).map(({ name, props }) => {
  try {
    return renderIsland(name, JSON.parse(props));
  } catch (error) {
    console.error(`Failed to render island ${name}:`, error);
    process.exit(1);
  }
});
process.stdout.write(JSON.stringify(html));
