import { z } from 'zod';
import type { AgentsContext } from '../context';
import { contentPageRow, savedContentPages } from './public.repository';
import { contentSchema } from '../../../shared/api/contracts/agents-values';

/** Landing-page content served by /api/content/{page}. */
const CONTENT: Record<string, { title: string; sections: { heading: string; body: string }[] }> = {
  landing: {
    title: 'Conversational agents trained on your knowledge',
    sections: [
      { heading: 'Train in minutes', body: 'Add text, questions and answers, PDF and Word files, your website or a social profile. Your agent answers from them.' },
      { heading: 'Hand over to people', body: 'When a visitor asks for a person, the conversation moves to your shared inbox, and your team replies in the same chat.' },
      { heading: 'Capture leads', body: 'Emails and phone numbers visitors leave become contacts and leads you can export.' },
    ],
  },
  features: {
    title: 'Features',
    sections: [
      { heading: 'Knowledge sources', body: 'Text, Q&A pairs, files (PDF, DOCX), website crawls and social profiles, indexed for fast retrieval in any language, Japanese included.' },
      { heading: 'Streaming chat', body: 'Answers stream word by word over server-sent events.' },
      { heading: 'Embeddable widget', body: 'One script tag puts the agent on any page.' },
      { heading: 'Analytics and advisor', body: 'Volumes, topics, sentiment and recommendations computed from your conversations.' },
    ],
  },
  pricing: {
    title: 'Pricing',
    sections: [
      { heading: 'Credits', body: 'Every chat turn costs one credit. New workspaces start with free credits.' },
      { heading: 'Plans', body: 'Free, Starter, Pro and Business tiers raise the monthly message allowance.' },
    ],
  },
  faq: {
    title: 'Frequently asked questions',
    sections: [
      { heading: 'What happens when the agent does not know?', body: 'It says so honestly and offers a human operator instead of inventing an answer.' },
      { heading: 'Which languages work?', body: 'The agent replies in the language the visitor writes in; retrieval works for English and Japanese alike.' },
    ],
  },
  privacy: { title: 'Privacy', sections: [{ heading: 'Your data', body: 'Conversations, contacts and sources belong to your workspace and are never shared with other workspaces.' }] },
  terms: { title: 'Terms of service', sections: [{ heading: 'Use', body: 'Use the service lawfully and do not upload content you have no right to use.' }] },
};

export type PageContent = z.infer<typeof contentSchema>;

/** A landing page: the operator's version when saved, else the built-in text; null for an unknown page. */
export async function pageContent(ctx: AgentsContext, page: string): Promise<(PageContent & { overridden: boolean; updated_at: string | null }) | null> {
  const row = await contentPageRow(ctx.db, page);
  if (row) {
    const parsed = contentSchema.safeParse(JSON.parse(row.data));
    if (parsed.success) return { ...parsed.data, overridden: true, updated_at: new Date(row.updated_at).toISOString() };
  }
  if (!Object.hasOwn(CONTENT, page)) return null;
  const c = CONTENT[page];
  return { title: c.title, sections: c.sections.map((s) => ({ ...s })), overridden: false, updated_at: null };
}

export async function contentPages(ctx: AgentsContext): Promise<string[]> {
  const saved = await savedContentPages(ctx.db);
  return [...new Set([...Object.keys(CONTENT), ...saved])];
}

