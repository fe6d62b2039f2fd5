import { useSyncExternalStore } from 'react';

/** What a login leaves behind. Stored in localStorage with Remember Me, else in sessionStorage. */
export interface Session {
  apikey: string;
  username: string;
  rememberUser: boolean;
}

const STORAGE_KEY = 'shoko-ts.session';
const listeners = new Set<() => void>();

function read(storage: Storage): Session | null {
  try {
    const raw = storage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    return typeof parsed.apikey === 'string' && parsed.apikey
      ? { apikey: parsed.apikey, username: parsed.username ?? '', rememberUser: !!parsed.rememberUser }
      : null;
  } catch {
    return null;
  }
}

let current: Session | null = typeof window === 'undefined' ? null : (read(sessionStorage) ?? read(localStorage));

function emit() {
  listeners.forEach((listener) => listener());
}

export function getSession(): Session | null {
  return current;
}

export function getApiKey(): string {
  return current?.apikey ?? '';
}

export function saveSession(session: Session) {
  localStorage.removeItem(STORAGE_KEY);
  sessionStorage.removeItem(STORAGE_KEY);
  (session.rememberUser ? localStorage : sessionStorage).setItem(STORAGE_KEY, JSON.stringify(session));
  current = session;
  emit();
}

/** Logout only forgets the key locally; the server has no logout endpoint (the key stays valid for that device). */
export function clearSession() {
  localStorage.removeItem(STORAGE_KEY);
  sessionStorage.removeItem(STORAGE_KEY);
  if (current === null) return;
  current = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY) return;
    current = read(sessionStorage) ?? read(localStorage);
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, () => null);
}
