import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startGateRequests } from './app/landing';
import { installGlobalErrorReporting } from './lib/errorReporting';
import './index.css';

installGlobalErrorReporting();
startGateRequests();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
