import { useEffect } from 'react';
import { Link } from 'react-router';
import { useNotificationStore } from '../../../components/notifications/notification-context';
import { useLocationToast } from '../../../components/notifications/use-location-toast';

/** The public landing page; after sign-out it shows the toast passed in location state. */
export function HomePage() {
  const notifications = useNotificationStore();
  // Messages of the pages left behind do not follow onto / (before the location's own toast).
  useEffect(() => notifications.clear(), [notifications]);
  useLocationToast();
  return (
    <main className="centered-page">
      <title>Quire</title>
      <div className="hero">
        <span className="brand__mark brand__mark--large" aria-hidden="true">
          Q
        </span>
        <h1>Quire</h1>
        <p className="hero__lead">
          Documents, filed and found. Upload into categories, index with metadata, route through workflows.
        </p>
        <Link className="button button--primary" to="/login">
          Sign in
        </Link>
      </div>
    </main>
  );
}
