import { installGlobalErrorReporting } from '@/lib/errorReporting';
import { getSession } from '@/lib/session';
import { startAggregateFeedEarly } from '@/realtime/aggregateFeed';
import { trackFetchStarts } from '@/realtime/fetchStarts';
import { startGateRequests } from './landing';
import { queryClient } from './queryClient';

// Imported by main.tsx before anything else: the router starts loading the page's code as soon as its module runs, and
// the gate requests must not wait behind those scripts for one of the browser's six connections to the server.
installGlobalErrorReporting();
trackFetchStarts(queryClient.getQueryCache());
startGateRequests();
// The live feed connects beside them (its SignalR code is asked for now, beside the page's scripts, not after them), so
// that it is up before the page's data is asked for: answers asked for once it is connected need no second request when
// it connects (realtime/AggregateHub.tsx).
if (getSession()) startAggregateFeedEarly();
