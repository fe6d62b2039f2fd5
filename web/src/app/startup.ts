import { installGlobalErrorReporting } from '@/lib/errorReporting';
import { startGateRequests } from './landing';

// Imported by main.tsx before anything else: the router starts loading the page's code as soon as its module runs, and
// the gate requests must not wait behind those scripts for one of the browser's six connections to the server.
installGlobalErrorReporting();
startGateRequests();
