import { Placeholder } from '@/components/Placeholder';
import { WelcomeModal } from './WelcomeModal';

export default function DashboardPage() {
  return (
    <>
      <Placeholder title="Dashboard" feature="dashboard widgets" />
      <WelcomeModal />
    </>
  );
}
