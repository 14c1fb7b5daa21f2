import { PageHeader } from '../../../components/page-header';
import { useAreaAccess } from '../../../lib/permissions';
import { ArrivalsSection } from '../components/arrivals-section';
import { RuleForm } from '../components/rule-form';
import { RulesSection } from '../components/rules-section';
import { SourceForm } from '../components/source-form';
import { SourcesSection } from '../components/sources-section';

/**
 * Intake: the sources files arrive from without the browser (watched folders, e-mail inboxes)
 * with their state, last error and counts; the rules that file what arrives, in the order they
 * are tried, with a dry run; and the recent arrivals with the rule that filed each.
 */
export function IntakePage() {
  const { canWrite } = useAreaAccess('fileControl');
  return (
    <>
      <PageHeader title="Intake">
        Files that arrive in a watched folder or an e-mail inbox are uploaded as their source's owner and
        filed by the first rule that matches them. Every arrival is in the audit trail with its source.
      </PageHeader>
      <SourcesSection canWrite={canWrite} />
      {canWrite ? <SourceForm /> : null}
      <RulesSection canWrite={canWrite} />
      {canWrite ? <RuleForm /> : null}
      <ArrivalsSection canWrite={canWrite} />
    </>
  );
}
