import { StrictMode, Suspense, lazy, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { Shell, type NavGroup } from './components/shell';
import { ErrorState, Loading } from './components/ui';
import { navigate, useRoute } from './lib/router';
import { installScanService, useScanHandler } from './lib/scan-service';
import { HomeScreen } from './screens/home';
import './styles.css';

const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => lazy(() => load().then((m) => ({ default: m[name] })));

interface Screen {
  label: string;
  group: string;
  view: ComponentType;
}

const SCREENS: Record<string, Screen> = {
  '/': { label: 'ホーム', group: '現場', view: HomeScreen },
  '/receiving': { label: '入荷セッション', group: '現場', view: named(() => import('./screens/receiving-modes'), 'ReceivingModes') },
  '/ledger': { label: '端末台帳', group: '現場', view: named(() => import('./screens/ledger'), 'LedgerScreen') },
  '/jobs': { label: '案件ボード', group: '現場', view: named(() => import('./screens/jobs'), 'JobsScreen') },
  '/certs': { label: 'データ消去証明書', group: '現場', view: named(() => import('./screens/certs'), 'CertsScreen') },
  '/labels': { label: 'ラベル印刷', group: '現場', view: named(() => import('./screens/labels'), 'LabelsScreen') },
  '/shipments': { label: '入出荷', group: '現場', view: named(() => import('./screens/shipments'), 'ShipmentsScreen') },
  '/tickets': { label: 'チケット', group: 'サポート', view: named(() => import('./screens/tickets'), 'TicketsScreen') },
  '/inquiries': { label: '問合せ・故障受付', group: 'サポート', view: named(() => import('./screens/inquiries'), 'InquiriesScreen') },
  '/customers': { label: '顧客・更新予定', group: 'サポート', view: named(() => import('./screens/customers'), 'CustomersScreen') },
  '/quotes': { label: '見積', group: 'バックオフィス', view: named(() => import('./screens/quotes'), 'QuotesScreen') },
  '/invoices': { label: '請求', group: 'バックオフィス', view: named(() => import('./backoffice/invoices'), 'InvoicesScreen') },
  '/shifts': { label: 'シフト', group: 'バックオフィス', view: named(() => import('./backoffice/shifts'), 'ShiftsScreen') },
  '/timeclock': { label: '勤怠打刻', group: 'バックオフィス', view: named(() => import('./backoffice/timeclock'), 'TimeclockScreen') },
  '/dock': { label: '搬入出予約', group: 'バックオフィス', view: named(() => import('./backoffice/dock'), 'DockScreen') },
  '/capacity': { label: 'キャパシティ', group: 'バックオフィス', view: named(() => import('./backoffice/generic'), 'CapacityScreen') },
  '/daas': { label: 'DaaS', group: 'バックオフィス', view: named(() => import('./backoffice/generic'), 'DaasScreen') },
  '/store': { label: 'アクセサリー販売', group: 'バックオフィス', view: named(() => import('./backoffice/generic'), 'StoreScreen') },
  '/tradein': { label: '下取り・買取', group: 'バックオフィス', view: named(() => import('./backoffice/generic'), 'TradeinScreen') },
  '/reports': { label: '月次レポート', group: 'バックオフィス', view: named(() => import('./backoffice/generic'), 'ReportsScreen') },
  '/compliance': { label: 'コンプライアンス', group: '管理', view: named(() => import('./backoffice/generic'), 'ComplianceScreen') },
  '/settings': { label: '設定', group: '管理', view: named(() => import('./backoffice/settings'), 'SettingsScreen') },
  '/integrations': { label: '外部連携', group: '管理', view: named(() => import('./backoffice/generic'), 'IntegrationsScreen') },
};

const NAV: NavGroup[] = [];
for (const [path, s] of Object.entries(SCREENS)) {
  let g = NAV.find((x) => x.title === s.group);
  if (!g) NAV.push((g = { title: s.group, items: [] }));
  g.items.push({ path, label: s.label });
}

installScanService();

function App() {
  const { path } = useRoute();
  // Screens without a scan action of their own open the scanned device in the ledger
  // (which offers registration for an unknown IMEI).
  useScanHandler((scan) => navigate(`/ledger?imei=${encodeURIComponent(scan.value)}`));
  const screen = SCREENS[path];
  const View = screen?.view;
  return (
    <Shell nav={NAV} current={path} title={screen?.label ?? 'ページが見つかりません'}>
      {View ? (
        <Suspense fallback={<Loading what="画面" />}>
          <View key={path} />
        </Suspense>
      ) : (
        <ErrorState error={new Error(`「${path}」という画面はありません。左のメニューから選んでください。`)} />
      )}
    </Shell>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
