import { useCurrentUser } from '@/api/users';
import { useSession } from '@/lib/session';

export function UserBadge() {
  const session = useSession();
  const { data: user } = useCurrentUser();
  const name = user?.Username ?? session?.username ?? '';
  return (
    <div className="flex items-center gap-2 px-1" data-testid="current-user">
      {user?.Avatar ? (
        <img src={user.Avatar} alt="" className="size-8 rounded-full object-cover" />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-full bg-panel-alt text-sm font-semibold text-primary"
        >
          {name.charAt(0).toUpperCase() || '?'}
        </span>
      )}
      <span className="hidden max-w-40 truncate text-sm font-semibold sm:inline">{name}</span>
    </div>
  );
}
