import { useId } from 'react';
import './members.css';
import { CopyButton } from '../../components/CopyButton.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LongDate } from '../../components/Time.tsx';
import type { Invitation } from '../../types.ts';

/**
 * A new invitation link, shown this once: in full (the owner is about to send it, so hiding it
 * helps no one), with a copy button, and the day it stops working.
 */
export function InvitationDialog({ invitation, onClose }: { invitation: Invitation | null; onClose: () => void }) {
  const id = useId();
  return (
    <Dialog
      open={invitation !== null}
      title="Invitation link"
      onClose={onClose}
      actions={
        <button type="button" className="button button-primary" onClick={onClose}>
          Done
        </button>
      }
    >
      {invitation && (
        <>
          <p role="status" data-testid="invitation-emailed">
            {invitation.emailed
              ? `The invitation was emailed to ${invitation.email}.`
              : `The invitation was not emailed (email is not set up on this server, or sending failed): send the link below to ${invitation.email} yourself.`}
          </p>
          <p data-testid="invitation-expiry">
            The link works once, until <LongDate iso={invitation.expiresAt} />, and is shown only now; use Resend in the list for a new one.
          </p>
          <div className="invitation-link">
            <label className="visually-hidden" htmlFor={id}>
              Invitation link for {invitation.email}
            </label>
            {/* A read-only text area: the whole link wraps into view, and it selects on focus. */}
            <textarea
              id={id}
              className="mono"
              readOnly
              rows={3}
              value={invitation.url}
              spellCheck={false}
              onFocus={(e) => e.target.select()}
              data-testid="invitation-url"
              data-autofocus
            />
            <CopyButton text={invitation.url} what="invitation link" />
          </div>
        </>
      )}
    </Dialog>
  );
}
