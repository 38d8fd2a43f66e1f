/** What a member sees at an address that is not a screen, or at a screen of a tab they do not hold. */
import { Link } from '../components/link.tsx';
import { PageHeader } from '../components/ui.tsx';
import { TAB_LABELS, type ScreenDef } from '../session.tsx';

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is nothing at this address. <Link href="/app">Back to the dashboard</Link>
      </p>
    </>
  );
}

export function NoAccess({ screen }: { screen: ScreenDef }) {
  return (
    <div data-screen="no-access">
      <PageHeader title={`No access to ${screen.label}`} />
      <p>
        {screen.roles
          ? `${screen.label} is for owners and admins.`
          : `Your membership does not include the ${TAB_LABELS[screen.tab]} tab. An owner or admin can grant it in Team.`}
      </p>
      <p>
        <Link href="/app">Back to the dashboard</Link>
      </p>
    </div>
  );
}
