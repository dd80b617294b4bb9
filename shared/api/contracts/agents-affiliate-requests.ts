/** Request contracts of the agent platform's affiliate routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';

export const displayName = z.string().trim().min(1, 'displayName must not be empty').max(80);

export const socials = z.union([z.record(z.string().max(40), z.string().max(300)), z.array(z.string().max(300)).max(20)]).refine((v) => Object.keys(v).length <= 20, 'at most 20 entries');

export const promoCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,32}$/, 'promoCode must be 3-32 letters, digits, - or _')
  .transform((s) => s.toUpperCase());

export const payoutMethod = z
  .object({
    method: z.enum(['paypal', 'crypto'], 'method must be paypal or crypto'),
    dest: z.string().trim().min(1).max(200),
    network: z.string().trim().max(40).nullish(),
  })
  .superRefine((v, c) => {
    if (v.method === 'paypal' && !z.email().safeParse(v.dest).success) c.addIssue({ code: 'custom', path: ['dest'], message: 'a PayPal payout needs the account email' });
    if (v.method === 'crypto' && !v.network) c.addIssue({ code: 'custom', path: ['network'], message: 'a crypto payout needs the network (for example USDT-TRC20)' });
    if (v.method === 'crypto' && !/^[A-Za-z0-9:._-]{10,120}$/.test(v.dest)) c.addIssue({ code: 'custom', path: ['dest'], message: 'not a wallet address' });
  });

/** Request schemas of affiliate/affiliate.routes.ts, by route. */
export const affiliateRequests = {
  'POST /api/affiliate/enroll': { body: z.object({ displayName: displayName.optional(), socials: socials.optional(), agree: z.literal(true, 'you must agree to the program terms (agree:true)') }) },
  'PATCH /api/affiliate': { body: z.object({ displayName: displayName.optional(), socials: socials.optional(), promoCode: promoCode.nullable().optional(), notify: z.boolean().optional() }) },
  'POST /api/affiliate/links': { body: z.object({ name: z.string().trim().min(1, 'name is required').max(80), channel: z.string().trim().max(40).default('') }) },
  'DELETE /api/affiliate/links/:id': { params: z.object({ id: z.string().max(64) }) },
  'POST /api/affiliate/kyc': { body: z.object({ document: z.string().min(1, 'document is required'), mime: z.string().max(100).optional(), filename: z.string().max(200).optional() }) },
  'POST /api/affiliate/payout': { body: z.object({ amount: z.number('amount must be a number in USD').positive('amount must be positive').max(1_000_000) }) },
  'GET /r/:code': { params: z.object({ code: z.string().max(64) }) },
};
