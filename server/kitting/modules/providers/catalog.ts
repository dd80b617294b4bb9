/** The 13 integration providers: how each connects and what a user needs to set up. */
export type AuthType = 'oauth' | 'apikey' | 'webhook';

export interface Provider {
  key: string;
  name: string;
  group: string;
  authType: AuthType;
  guide: string;
  /** OAuth: endpoints and the env prefix of its client id/secret (<PREFIX>_CLIENT_ID, <PREFIX>_CLIENT_SECRET). */
  oauth?: { authorize: string; token: string; scope: string; env: string };
  /** API key / webhook: the fields a user fills in (all required). */
  fields?: string[];
}

export const PROVIDERS: Provider[] = [
  { key: 'google', name: 'Google Workspace', group: 'ID・MDM', authType: 'oauth', guide: 'Google Cloud で OAuth クライアントを作成し、GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET を設定します。', oauth: { authorize: 'https://accounts.google.com/o/oauth2/v2/auth', token: 'https://oauth2.googleapis.com/token', scope: 'openid email https://www.googleapis.com/auth/admin.directory.device.mobile.readonly', env: 'GOOGLE' } },
  { key: 'microsoft', name: 'Microsoft 365 / Intune', group: 'ID・MDM', authType: 'oauth', guide: 'Entra ID にアプリを登録し、MICROSOFT_CLIENT_ID / MICROSOFT_CLIENT_SECRET を設定します。', oauth: { authorize: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize', token: 'https://login.microsoftonline.com/common/oauth2/v2.0/token', scope: 'offline_access DeviceManagementManagedDevices.Read.All', env: 'MICROSOFT' } },
  { key: 'jamf', name: 'Jamf Pro', group: 'ID・MDM', authType: 'apikey', guide: 'Jamf Pro の API クライアントを作成し、URL・クライアントID・シークレットを入力します。', fields: ['url', 'clientId', 'clientSecret'] },
  { key: 'slack', name: 'Slack', group: '通知', authType: 'webhook', guide: 'Slack の Incoming Webhook URL を入力します。', fields: ['webhookUrl'] },
  { key: 'teams', name: 'Microsoft Teams', group: '通知', authType: 'webhook', guide: 'Teams チャネルの Webhook URL を入力します。', fields: ['webhookUrl'] },
  { key: 'lineworks', name: 'LINE WORKS', group: '通知', authType: 'webhook', guide: 'LINE WORKS の Incoming Webhook URL を入力します。', fields: ['webhookUrl'] },
  { key: 'chatwork', name: 'Chatwork', group: '通知', authType: 'apikey', guide: 'Chatwork の API トークンと通知先ルームIDを入力します。', fields: ['apiToken', 'roomId'] },
  { key: 'freee', name: 'freee会計', group: '会計', authType: 'oauth', guide: 'freee アプリストアでアプリを作成し、FREEE_CLIENT_ID / FREEE_CLIENT_SECRET を設定します。', oauth: { authorize: 'https://accounts.secure.freee.co.jp/public_api/authorize', token: 'https://accounts.secure.freee.co.jp/public_api/token', scope: 'read write', env: 'FREEE' } },
  { key: 'moneyforward', name: 'マネーフォワード クラウド', group: '会計', authType: 'oauth', guide: 'マネーフォワード クラウドでアプリを登録し、MONEYFORWARD_CLIENT_ID / MONEYFORWARD_CLIENT_SECRET を設定します。', oauth: { authorize: 'https://api.biz.moneyforward.com/authorize', token: 'https://api.biz.moneyforward.com/token', scope: 'mfc/invoice/data.write', env: 'MONEYFORWARD' } },
  { key: 'salesforce', name: 'Salesforce', group: 'CRM', authType: 'oauth', guide: '接続アプリを作成し、SALESFORCE_CLIENT_ID / SALESFORCE_CLIENT_SECRET を設定します。', oauth: { authorize: 'https://login.salesforce.com/services/oauth2/authorize', token: 'https://login.salesforce.com/services/oauth2/token', scope: 'api refresh_token', env: 'SALESFORCE' } },
  { key: 'hubspot', name: 'HubSpot', group: 'CRM', authType: 'oauth', guide: 'HubSpot の公開アプリを作成し、HUBSPOT_CLIENT_ID / HUBSPOT_CLIENT_SECRET を設定します。', oauth: { authorize: 'https://app.hubspot.com/oauth/authorize', token: 'https://api.hubapi.com/oauth/v1/token', scope: 'crm.objects.contacts.write', env: 'HUBSPOT' } },
  { key: 'kintone', name: 'kintone', group: '業務アプリ', authType: 'apikey', guide: 'kintone のサブドメインとアプリの API トークンを入力します。', fields: ['domain', 'apiToken'] },
  { key: 'webhook', name: '汎用Webhook', group: '連携', authType: 'webhook', guide: 'イベントを受け取る URL を入力します（接続時にテスト送信します）。', fields: ['url'] },
];

export const findProvider = (key: string) => PROVIDERS.find((p) => p.key === key) ?? null;

export function oauthClient(p: Provider, env: NodeJS.ProcessEnv = process.env): { id: string; secret: string } | null {
  if (!p.oauth) return null;
  const id = env[`${p.oauth.env}_CLIENT_ID`];
  const secret = env[`${p.oauth.env}_CLIENT_SECRET`];
  return id && secret ? { id, secret } : null;
}
