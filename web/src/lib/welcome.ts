/** The Welcome modal shows once after the first run; the flag lives in this browser only. */
const KEY = 'shoko-ts.welcome';

export function markWelcomePending() {
  localStorage.setItem(KEY, 'pending');
}

export function isWelcomePending(): boolean {
  return localStorage.getItem(KEY) === 'pending';
}

export function dismissWelcome() {
  localStorage.setItem(KEY, 'dismissed');
}
