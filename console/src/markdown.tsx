import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';

/** Links may point at http(s) only: no javascript:, data: or mailto: from text an integration wrote. */
const webUrl = (url: string): string | null => (/^https?:\/\//i.test(url) ? url : null);

/** GitHub's sanitizing schema, with links narrowed to http(s). */
const schema = { ...defaultSchema, protocols: { ...defaultSchema.protocols, href: ['http', 'https'] } };

const components: Components = {
  // Headings sit under the page's own (its h1 and the section's h2).
  h1: 'h3',
  h2: 'h4',
  h3: 'h5',
  h4: 'h6',
  h5: 'h6',
  // A link whose address was refused keeps its words, as text.
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
};

/**
 * Markdown someone outside the service wrote (a run task's outcome body): rendered to elements,
 * never to HTML. Raw HTML is dropped, images are not loaded, and what is left passes a sanitizer.
 */
export function SafeMarkdown({ source, label }: { source: string; label?: string }) {
  return (
    <div className="markdown" aria-label={label}>
      <Markdown
        skipHtml
        disallowedElements={['img']}
        unwrapDisallowed
        urlTransform={webUrl}
        rehypePlugins={[[rehypeSanitize, schema]]}
        components={components}
      >
        {source}
      </Markdown>
    </div>
  );
}
