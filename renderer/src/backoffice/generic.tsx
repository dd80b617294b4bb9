/** Back-office screens, one file each; re-exported here for the screen table in main.tsx. */
export { CapacityScreen } from './capacity';
export { DaasScreen } from './daas';
export { StoreScreen } from './store';
export { TradeinScreen } from './tradein';
export { ReportsScreen } from './reports';
export { ComplianceScreen } from './compliance';
export { IntegrationsScreen } from './integrations';
