/** Response contracts of the agent platform's affiliate routes (docs/spec/agents-api.md). */
import { z } from 'zod';
import { AffiliateRecord, PayoutRecord } from './agents-records';

export const LinkRecord = z.looseObject({
  id: z.string(),
  name: z.string(),
  channel: z.string(),
  code: z.string(),
  url: z.string(),
  primary: z.boolean(),
  clicks: z.number(),
  signups: z.number(),
  created_at: z.string(),
});

export const StatsRecord = z.looseObject({
  clicks: z.number(),
  signups: z.number(),
  payingCustomers: z.number(),
  earnings: z.number(),
  paidOut: z.number(),
  pendingPayout: z.number(),
  available: z.number(),
  currency: z.string(),
});

/** The affiliate dashboard: the programme, and once enrolled the affiliate, links, figures, commissions and payouts. */
const AffiliateDashboard = z.looseObject({
  enrolled: z.boolean(),
  program: z.looseObject({
    commissionRate: z.number(),
    commissionPercent: z.number(),
    cookieDays: z.number(),
    minimumPayout: z.number(),
    currency: z.string(),
  }),
  affiliate: AffiliateRecord.optional(),
  links: z.array(LinkRecord).optional(),
  stats: StatsRecord.optional(),
  commissions: z.array(z.looseObject({ fee: z.number(), commission: z.number(), created_at: z.string() })).optional(),
  payouts: z.array(PayoutRecord).optional(),
});

/** Success bodies of affiliate/affiliate.routes.ts, by route. */
export const affiliateResponses = {
  'DELETE /api/affiliate/links/:id': z.looseObject({ ok: z.boolean() }),
  'GET /api/affiliate': AffiliateDashboard,
  'GET /api/affiliate/assets': z.looseObject({
    colors: z.array(z.looseObject({ name: z.string(), hex: z.string() })),
    logos: z.array(z.looseObject({ variant: z.string(), format: z.string(), url: z.string() })),
    creatives: z.array(
      z.looseObject({
        id: z.string(),
        channel: z.string(),
        size: z.string(),
        format: z.string(),
        url: z.string(),
        caption: z.string(),
        hashtags: z.array(z.string()),
      }),
    ),
    guidelines: z.array(z.string()),
  }),
  'GET /api/affiliate/leaderboard': z.looseObject({
    leaderboard: z.array(
      z.looseObject({ rank: z.number(), displayName: z.string(), earnings: z.number(), referrals: z.number(), you: z.boolean() }),
    ),
    me: z.looseObject({ rank: z.number(), earnings: z.number(), referrals: z.number() }).nullable(),
    currency: z.string(),
  }),
  'PATCH /api/affiliate': AffiliateDashboard,
  'POST /api/affiliate/enroll': AffiliateDashboard,
  'POST /api/affiliate/kyc': z.looseObject({
    kyc: z.looseObject({ id: z.string(), status: z.string(), mime: z.string(), submitted_at: z.string() }),
  }),
  'POST /api/affiliate/links': z.looseObject({ link: LinkRecord }),
  'POST /api/affiliate/payout': z.looseObject({ payout: PayoutRecord, available: z.number() }),
  'POST /api/affiliate/payout-method': z.looseObject({
    payoutMethod: z.looseObject({ method: z.string(), dest: z.string(), network: z.string().nullable() }),
  }),
};
