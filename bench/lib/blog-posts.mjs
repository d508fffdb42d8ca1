// The blog benchmark's posts: deterministic, about 1,200 words of HTML each (headings,
// paragraphs, lists, links, bold and italics), all sharing one featured image. The HTML is
// what the api would have stored (its sanitiser's output, which the generator's own pass
// leaves unchanged); the publish and edit timings send theirs through the api, which cleans it.
import { IMAGE } from './blog-config.mjs';

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = `people party vote voters election ballot campaign community county state nation
country citizens volunteers movement grassroots conscience freedom justice fairness education
healthcare clean food water air energy schools teachers students families workers wages jobs
housing rent neighbors towns cities rural farms farmers small business local public policy
platform reform transparency accountability representation districts primaries caucus
independent third choice voice power money donors corporations lobbyists congress senate
house governor mayor council budget taxes spending debt infrastructure roads bridges transit
broadband hospitals clinics nurses doctors medicine prescriptions insurance coverage care
children parents seniors veterans service duty honor trust truth hope courage change future
history founders constitution rights liberty equality dignity respect opportunity growth
economy markets prices inflation savings pensions retirement security safety peace climate
environment rivers forests parks land soil harvest nutrition pesticides labels standards
science research data evidence study report survey numbers results progress plan goals
strategy organize canvass phone bank door knock rally meeting forum debate town hall
petition signatures registration turnout polls count audit fair open honest simple clear
strong together every across across through because while where when which about around
before after during under over between against toward without within beyond among`
  .split(/\s+/)
  .filter(Boolean);
const SITES = ['https://www.congress.gov', 'https://www.fec.gov', 'https://ballotpedia.org', 'http://www.ncsl.org', 'https://www.census.gov'];
const AUTHORS = ['Maria Alvarez', 'James Whitfield', 'Priya Raman', 'Daniel Okafor', 'ACP Team'];
const capital = (w) => w[0].toUpperCase() + w.slice(1);

export function makePost(i) {
  const r = prng(0x5eed + i * 7919);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const between = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  let words = 0;
  const phrase = (n) => {
    words += n;
    return Array.from({ length: n }, () => pick(WORDS)).join(' ');
  };
  const sentence = () => {
    const parts = [];
    const n = between(8, 18);
    for (let k = 0; k < n; k++) {
      const x = r();
      // Links as the api stores them: its sanitiser gives every link this rel.
      if (x < 0.025) parts.push(`<a href="${pick(SITES)}/${pick(WORDS)}-${pick(WORDS)}" rel="noopener noreferrer">${phrase(2)}</a>`);
      else if (x < 0.04) parts.push(`<a href="/${pick(['issues', 'join', 'take-action', 'movement'])}" rel="noopener noreferrer">${phrase(2)}</a>`);
      else if (x < 0.06) parts.push(`<strong>${phrase(2)}</strong>`);
      else if (x < 0.08) parts.push(`<em>${phrase(1)}</em>`);
      else parts.push(phrase(1));
    }
    const s = parts.join(' ');
    return `${s.startsWith('<') ? s : capital(s)}.`;
  };
  const paragraph = () => `<p>${Array.from({ length: between(3, 6) }, sentence).join(' ')}</p>`;
  const list = () => {
    const tag = r() < 0.5 ? 'ul' : 'ol';
    const items = Array.from({ length: between(3, 6) }, () => `<li>${capital(phrase(between(6, 14)))}</li>`);
    return `<${tag}>${items.join('')}</${tag}>`;
  };
  const title = capital(phrase(between(5, 9)));
  const excerpt = `${capital(phrase(between(20, 30)))}.`;
  words = 0;
  const html = [paragraph(), paragraph()];
  while (words < 1200) {
    html.push(`<h2>${capital(phrase(between(3, 7)))}</h2>`, paragraph());
    if (r() < 0.6) html.push(paragraph());
    if (r() < 0.5) html.push(list());
    if (r() < 0.4) html.push(`<h3>${capital(phrase(between(2, 5)))}</h3>`, paragraph());
  }
  const slug = `${title.toLowerCase().split(' ').slice(0, 6).join('-')}-${i + 1}`;
  // One post every six hours, newest first, back from 5 January 2025.
  const date = new Date(Date.UTC(2025, 0, 5, 14, 3) - i * 6 * 3600_000).toISOString();
  return {
    title,
    slug,
    excerpt,
    content: html.join('\n'),
    keywords: `${pick(WORDS)}, ${pick(WORDS)}, ${pick(WORDS)}`,
    author: pick(AUTHORS),
    date,
    words,
  };
}

const sql = (s) => `'${String(s).replaceAll("'", "''")}'`;
export function seedSql(posts) {
  const rows = posts.map(
    (p) =>
      `INSERT INTO blog_posts (title, slug, excerpt, content, featured_image, featured_image_alt, keywords, author_name, status, publish_date, created_at, updated_at) VALUES (${[
        p.title,
        p.slug,
        p.excerpt,
        p.content,
        IMAGE,
        `Illustration for ${p.title}`,
        p.keywords,
        p.author,
        'published',
        p.date,
        p.date,
        p.date,
      ]
        .map(sql)
        .join(', ')});`,
  );
  return `BEGIN;\n${rows.join('\n')}\nCOMMIT;\n`;
}
