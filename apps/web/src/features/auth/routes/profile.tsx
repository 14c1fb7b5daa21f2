import { accessTypeLabel, type TUser } from '@quire/contract';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { useCurrentUser } from '../../../lib/current-user';
import { ChangePasswordCard } from '../components/change-password-card';
import { SignatureCard } from '../components/signature-card';
import { TwoFactorCard } from '../components/two-factor-card';

/** /profile: every signed-in person's own account, password, signature and 2FA. */
export function ProfilePage() {
  const { user, isPending } = useCurrentUser();
  return (
    <>
      <PageHeader title="Profile">Your account, password, signature and sign-in security.</PageHeader>
      {user ? (
        <div className="profile-grid">
          <AccountCard user={user} />
          <TwoFactorCard user={user} />
          <ChangePasswordCard user={user} />
          <SignatureCard user={user} />
        </div>
      ) : isPending ? (
        <PageLoader label="Loading your profile…" />
      ) : null}
    </>
  );
}

function AccountCard({ user }: { user: TUser }) {
  return (
    <section className="card" aria-labelledby="profile-account">
      <h2 id="profile-account">Account</h2>
      <dl className="details">
        <div>
          <dt>Name</dt>
          <dd>{user.name || '—'}</dd>
        </div>
        <div>
          <dt>Username</dt>
          <dd>{user.username}</dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>Access type</dt>
          <dd>{accessTypeLabel(user.access_type)}</dd>
        </div>
        <div>
          <dt>Login role</dt>
          <dd>{user.role === 'admin' ? 'Admin' : 'User'}</dd>
        </div>
      </dl>
    </section>
  );
}
