import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AdminApp } from './admin/console';
import { Overlays } from './components/ui';
import './styles.css';

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AdminApp />
    <Overlays />
  </StrictMode>,
);
