<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>AccountSettingsPage</name>
    <message>
        <source>Using a preset access token (INQUIRY_BRIDGE_GRAPH_TOKEN).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed in as %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not signed in. Mail and OneDrive are not synced.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the Application (client) ID from step 6 first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the browser sign-in…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Application (client) ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign in with Microsoft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 00000000-0000-0000-0000-000000000000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;This copy of the app has no Microsoft app id yet.&lt;/b&gt; Register it once (about 5 minutes, free):&lt;ol&gt;&lt;li&gt;Open &lt;a href=&apos;https://portal.azure.com&apos;&gt;portal.azure.com&lt;/a&gt; → Microsoft Entra ID → App registrations → New registration.&lt;/li&gt;&lt;li&gt;Name it Inquiry Bridge; account types: &lt;i&gt;Accounts in any organizational directory and personal Microsoft accounts&lt;/i&gt;.&lt;/li&gt;&lt;li&gt;Redirect URI: &lt;i&gt;Public client/native (mobile &amp;amp; desktop)&lt;/i&gt;, &lt;code&gt;http://localhost&lt;/code&gt; → Register.&lt;/li&gt;&lt;li&gt;Authentication → &lt;i&gt;Allow public client flows&lt;/i&gt;: Yes → Save.&lt;/li&gt;&lt;li&gt;API permissions → Add → Microsoft Graph → Delegated: Mail.ReadWrite, Mail.Send, Files.ReadWrite, Calendars.ReadWrite, MailboxSettings.ReadWrite, User.Read, offline_access.&lt;/li&gt;&lt;li&gt;Copy the &lt;i&gt;Application (client) ID&lt;/i&gt; from Overview into the field below, then press Sign in with Microsoft.&lt;/li&gt;&lt;/ol&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AiNeeded</name>
    <message>
        <source>No AI model is set up yet, and this needs one. Open Settings → AI model, fill in “Endpoint URL”, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open AI settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AI model needed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Inquiry Bridge</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApprovalWindow</name>
    <message>
        <source>Review reply before sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attachments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a file from this computer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach any file on this computer, e.g. the quote PDF you just made</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>I have checked the unconfirmed values; they are correct</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What should change? (Chinese is fine)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve and send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be attached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This inquiry has no files to attach.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 attached, %2 in total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This customer is complaining: %1 — please look first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your instruction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you asked for this, the English does not say it: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>most of this draft repeats the customer&apos;s own email; is it the reply you want?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Chinese for you and the English that is sent disagree on: %1 — click “Translate again” or correct the English</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not in the Chinese</source>
        <translation>Not in the Chinese</translation>
    </message>
    <message>
        <source>the English sends these values, the Chinese does not show them: %1</source>
        <translation>the English sends these values, the Chinese does not show them: %1</translation>
    </message>
    <message>
        <source>The file %1 cannot be attached: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The attachments add up to %1, over Outlook&apos;s usual 35 MB limit: the email may be refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chinese translation for you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only you read this; the customer gets the English</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The English that is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Editable: this text is what the customer receives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translate again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The English text changed. Click “Translate again” to see it in Chinese.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a file to attach</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adding the file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT SENT — draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT SENT — waiting for your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT SENT — approved, waiting to send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SENT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discarded — not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT SENT — sending failed, the draft is kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaced by a revised draft — not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translating into Chinese…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An email went to this customer in the last %1 days: %2 “%3”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recipient (%1) is not the inquiry&apos;s customer (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unconfirmed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>these values are not in your instruction or the emails: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Chinese is up to date.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is a sample reply from the demo data, so it is not sent. Once your mailbox is connected, approving a reply sends it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Please check the highlighted unconfirmed values first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: %1 (the draft is kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discarded. Nothing was sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write what should change first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revising the draft…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generating… %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revised draft ready — please review it again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AttachmentStrip</name>
    <message>
        <source>Save attachment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show %1 more…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 more files in this email</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 more attachments not kept (too many in one email)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AttentionCard</name>
    <message>
        <source>Confirm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the inquiry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BoardModel</name>
    <message>
        <source>Customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suburb</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Products</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who owes a reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days in stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>We owe · %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>They owe · %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs your confirmation</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n draft(s) waiting for approval</source>
        <translation>
            <numerusform>%n draft waiting for approval</numerusform>
            <numerusform>%n drafts waiting for approval</numerusform>
        </translation>
    </message>
    <message>
        <source>A on site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B remote</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C other</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BoardPage</name>
    <message>
        <source>Guesses to check: low confidence, a merge on the phone alone, unreadable mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n inquiries</source>
        <translation>
            <numerusform>%n inquiry</numerusform>
            <numerusform>%n inquiries</numerusform>
        </translation>
    </message>
    <message>
        <source>Open the welcome window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No inquiry matches these filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No inquiries yet. Connect your mailbox (Microsoft 365 / Outlook, or another mailbox: Gmail, QQ, 163, any IMAP), set up the AI or try the demo data from the welcome window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs me (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs your confirmation (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search name, email, phone or suburb</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All classes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting on our reply, overdue in its stage, or a draft awaits approval</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BriefingWindow</name>
    <message>
        <source>Tomorrow, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New inquiries (24 h): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drafts waiting for approval: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overdue: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outlook calendar not read (not signed in to Microsoft)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No office address set: from the first stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1 km in a straight line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the route in Google Maps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the office and back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The office address “%1” could not be placed: from the first stop, without the trips to and from the office</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back to the office: about %1 km</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Addresses that could not be placed (%1): not in the route or the map link, arrange these yourself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inquiry #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>address unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 km</source>
        <translation>%1 km</translation>
    </message>
    <message>
        <source>customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Email</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to confirm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing overdue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tomorrow&apos;s appointments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for a measure (A) · suggested route</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The round on the map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs your confirmation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overdue in their stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evening briefing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatDock</name>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatPanel</name>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current customer is now %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Several customers matched: no current customer until you pick one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>move inquiry #%1 to the stage “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add this note to inquiry #%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add this to your knowledge base: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>create the OneDrive folder of inquiry #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal #%1 confirmed: done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal #%1 dropped: nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal #%1 could not be carried out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That file is no longer on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today&apos;s conversation · %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your products, lead times, warranty and prices: drafts and the assistant read it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the assistant remembers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter to send, Shift+Enter for a new line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask in your own words, e.g. “reply to him: we can measure next Tuesday”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No AI model is set up yet, so the assistant cannot answer. Add the AI service in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open AI settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files found:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposed, not done:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirm this change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ComposeDialog</name>
    <message>
        <source>Draft a reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What should the reply say? Write or dictate it in Chinese, e.g. 报价15000含GST，下周二上门量尺</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reply to %1 &lt;%2&gt;. Nothing is sent until you approve it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: an email went to this customer on %1 (“%2”).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generating… the text so far is shown below</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the draft…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CustomerBar</name>
    <message>
        <source>Clear the current customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No current customer — select an inquiry on the board</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current customer: %1 #%2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DatabaseSettingsPage</name>
    <message>
        <source>Testing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usable: an empty database. Switching makes the tables; to bring this computer&apos;s data along, copy it first (inquiry-bridge store copy).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usable: it already holds Inquiry Bridge data (%1 inquiries); after switching this computer shares it with the others that use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its tables are upgraded when this version first opens it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. Restart Inquiry Bridge to use this database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. After a restart the data is in this computer&apos;s folder again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Now: the PostgreSQL database %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Now: this computer&apos;s data folder (SQLite)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your data lives in this computer&apos;s data folder. To share it with other computers and an always-on box, enter a PostgreSQL address, press Test, then Switch. Testing never changes the database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch to this database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this computer&apos;s folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DemoBanner</name>
    <message>
        <source>You are looking at demo data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fictional customers in a separate folder; nothing syncs or is sent, and your own data is untouched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave the demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect my mailbox</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DesktopApp</name>
    <message>
        <source>Reminder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo data does not sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These are sample customers, so there is no mailbox to read. Press “Connect my mailbox” above to sync your own mail.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No mailbox connected yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to sync until a mailbox is connected: Settings → Microsoft account → Sign in with Microsoft (Outlook / Microsoft 365), or Settings → Other mailbox (Gmail, QQ, 163, any IMAP).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DictationButton</name>
    <message>
        <source>Recording discarded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discarded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recording… click again (or F9) to finish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recognising…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recognising… %1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recognition cancelled; the recording is kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current voice model only understands English; nothing was inserted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recognition failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No speech was heard — please try again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sure this was heard right. If you spoke Chinese: the current voice model only understands English, nothing was inserted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sure this was heard right — check it:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inserted — edit it before sending or saving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release to finish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hold to speak and release to finish, or click once to start and again to stop.
Shortcut: %1 in the text box. Esc discards the recording.
The words are inserted at the cursor for you to edit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recognise the kept recording again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insert anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the Chinese voice model…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Domain</name>
    <message>
        <source>Inquiry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quoting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ordered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Production</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(new)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A Measure on site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B Quote remotely</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C Not an inquiry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail intake</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OneDrive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n day</numerusform>
            <numerusform>%n days</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n working day(s)</source>
        <translation>
            <numerusform>%n working day</numerusform>
            <numerusform>%n working days</numerusform>
        </translation>
    </message>
    <message>
        <source>overdue %1 d</source>
        <translation>%1 working days overdue</translation>
    </message>
    <message>
        <source>We owe a reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for customer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Settings problem: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bad input: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system keyring is unavailable, secrets cannot be stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database cannot be opened: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is damaged. Click Repair to restore the latest backup and re-read the saved mail: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is busy: another Inquiry Bridge process is writing; try again shortly (nothing was lost): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data folder cannot be used; check that it exists and is writable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk is full; free some space and start again (no mail was lost): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Malformed email: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AI service error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot reach the AI service; check the endpoint and key in Settings: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The AI answer broke its format; it will be retried: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Microsoft 365 error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot reach the AI service: the address is wrong or the server is not running; check the address in Settings → AI model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The AI service refused the key: it is wrong or expired; enter it again in Settings → AI model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The AI service does not know this model name; check the model names in Settings → AI model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This model does not support what the app needs; pick another model, or press Test connection in Settings → AI model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The AI service is busy (too many requests); it will be retried later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Please sign in to Microsoft again: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quote not possible: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database URL is wrong (expected postgresql+psycopg://USER@HOST:PORT/DB); nothing was changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No database server answers; check the host, port and network. Nothing was changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database server refused the user name or password; nothing was changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This database holds another application&apos;s data; nothing was changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This database was made by a newer Inquiry Bridge; update this program first. Nothing was changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Microsoft is busy; retrying later: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot use the file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not signed in to Microsoft yet: sign in first (Settings → Microsoft account) %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No Microsoft app id yet: follow the steps on this page to register the app in Azure and enter its id.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot reach Microsoft&apos;s sign-in server. Check the network (or proxy), then press Sign in with Microsoft again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync state expired; starting a full sync %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network dropped; cannot tell whether it went through, stopped to avoid a duplicate: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not allowed in the draft&apos;s state: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The draft has unconfirmed facts; confirm or edit them first: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transcription failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice model download failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot import the voice model: %1</source>
        <translation>Cannot import the voice model: %1</translation>
    </message>
    <message>
        <source>No microphone available or permission denied: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Telegram error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This conversation is longer than the model can read at once, even shortened; give the model server a larger context (e.g. llama.cpp -c 8192) or pick another model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The AI service is failing or not answering right now; it will be retried later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail server error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mail password was refused: check the user name and use the app password (authorisation code) from the mailbox settings, not the web login password (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IMAP/SMTP is not enabled for this mailbox: turn it on in the webmail settings and try again (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot reach the mail server: check the network, server name and port (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No mail app password yet: enter it in Settings → Other mailbox, or set INQUIRY_BRIDGE_MAIL_PASSWORD%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The incoming mail (IMAP) server is too slow (%1). This round stopped; mail already received is kept, and it is tried again later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The incoming mail (IMAP) server answered beyond what the app accepts (%1). Disconnected; mail already received is kept. If this keeps happening, ask the mail provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refusing a plain-text connection to the mail server (the password could be read): use SSL or STARTTLS (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unexpected error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inquiry Bridge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details were written to the log in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database was repaired. What came back, and anything that could not:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FileOpen</name>
    <message>
        <source>This file was not opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name of “%1” hides what it really is (hidden characters, padding or a second extension); it is a program or script of type .%2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is a program or script (.%2): opening it would run it on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inquiry Bridge never opens such files with a click. If you trust the sender and really need it, find it in its folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FirstRunWizard</name>
    <message>
        <source>Loading the demo mailbox…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Welcome to Inquiry Bridge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inquiry Bridge reads your Outlook mailbox, puts every customer inquiry on one board in Chinese, and drafts English replies that are sent only after you approve them. How would you like to start?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign in with Microsoft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect your Outlook mailbox and OneDrive (Microsoft 365).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect another mailbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gmail, QQ Mail, 163/126, iCloud or any IMAP/SMTP mailbox, with an app password.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set up the AI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter an OpenAI-compatible endpoint and key for sorting mail and drafting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave the demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back to your own data folder; the demo stays in its separate folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try the demo data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a sample mailbox of Sydney customers into a separate demo folder. Nothing is sent and your real data is never touched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your company (ends every English reply)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Office address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. Harbour Aluminium Windows Pty Ltd</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. Kind regards, / your name / phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>where the evening briefing&apos;s measuring route starts, e.g. 5 Factory Rd, Penrith</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Fonts</name>
    <message>
        <source>No Chinese font</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chinese text will show as boxes. Install a Chinese font, then restart: {command}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InquiryDetailView</name>
    <message>
        <source>(unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n draft(s) waiting for approval</source>
        <translation>
            <numerusform>%n draft waiting for approval</numerusform>
            <numerusform>%n drafts waiting for approval</numerusform>
        </translation>
    </message>
    <message>
        <source>No OneDrive folder linked yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(choose products)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an inquiry on the left to see its details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quote %1 inc GST</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Advance stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quote…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line items with live totals; the PDF goes with a reply you approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free measuring times from your calendar; confirm one and the customer&apos;s confirmation waits for your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the waiting draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open OneDrive folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the reply in Chinese; you approve the English before anything is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Email</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suburb</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Products</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any format, e.g. 0412 345 678</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one size per line, e.g. 2400 x 2100</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A note about this customer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Emails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KnowledgeButton</name>
    <message>
        <source>Knowledge base…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KnowledgeDialog</name>
    <message>
        <source>Not saved: the knowledge base was changed elsewhere (for example an addition you confirmed in the chat). Copy your changes, press Reload, then add them again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: drafts and the assistant know nothing of your trade yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 characters: drafts and the assistant read all of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 characters: too long to send whole, so each draft gets the parts that match the customer&apos;s mail.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not saved yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close without saving your changes to the knowledge base?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What you know about your trade, in your own words. Every draft and the assistant read it, and a lead time, price or warranty written here counts as yours: a draft that repeats it is not flagged as unconfirmed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You are trying the demo data: this is your own knowledge base, not the demo&apos;s. What you write here stays when you leave the demo.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write one fact per line under a heading, for example:
## Products — the windows and doors you make, their series and limits
## Options — colours, hardware, flyscreens
## Glass — the glass you offer and when
## Lead times — how long each product takes
## Warranty — what is covered and for how long
## Price rules — GST, deposit, what costs extra
## Standards — e.g. AS 2047, wind ratings
## FAQs — the questions customers keep asking, with your answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved in %1 (you can also edit it with any text editor).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insert section headings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LLMSettingsPage</name>
    <message>
        <source>Fill in “%1” above first, then test.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing… (a few small requests)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other OpenAI-compatible server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Endpoint URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Small model (classify)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mid model (extract, draft, translate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Large model (assistant)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallel calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No API key is needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saved in %1 — leave empty to keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saved in the system keyring (or an owner-only file), never in settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LinkGate</name>
    <message>
        <source>Open link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open this address in the browser?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MailboxDialog</name>
    <message>
        <source>Connect a mailbox</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MailboxSettingsPage</name>
    <message>
        <source>Enter the mail address and the app password first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected: %1. Fetching mail now (INBOX and Sent)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSL/TLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STARTTLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>App password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IMAP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMTP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. mail.example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not the web login password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test and save</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Inquiry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Microsoft sign-in needed — open Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync problem (%1) — see the log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected, fetching mail…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n mails wait for disk space — free up about %1</source>
        <translation>
            <numerusform>%n mail waits for disk space — free up about %1</numerusform>
            <numerusform>%n mails wait for disk space — free up about %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Sync paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Awaiting approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Board</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evening briefing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overview · cost and quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Welcome window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo data — your real mailbox is untouched</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Memory</name>
    <message>
        <source>Owner&apos;s preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Customer notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Business rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experience</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Telegram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>command line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forwarded on Telegram (not your words)</source>
        <translation>forwarded on Telegram (not your words)</translation>
    </message>
    <message>
        <source>in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>proposed — confirm?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>conversation (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not used yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assistant (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>said %1 times</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryButton</name>
    <message>
        <source>Assistant&apos;s memory…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryDialog</name>
    <message>
        <source>What the assistant remembers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant reads these in every conversation, and a customer&apos;s in his drafts. Proposed ones are not used until you confirm them; expired ones (past their day) and retired ones are kept but never used again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Came from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last used in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a memory to edit its words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MessageCard</name>
    <message>
        <source>Translating…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>We wrote to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide translation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New text only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whole email</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelDownload</name>
    <message>
        <source>Import a Whisper model (zip)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import a Whisper model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chinese needs another voice model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current voice model only understands English, so nothing was inserted.

Download Whisper %1 (about %2, once) to dictate in Chinese and English? It is stored on this PC; dictation never leaves it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import from folder or zip…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelDownloadDialog</name>
    <message>
        <source>Download the Chinese voice model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading Whisper %1 (about %2) from %3 …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done. Whisper %1 is now used for dictation, in Chinese and English.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelWaiting</name>
    <message>
        <source>the model did not finish in time (a model on this PC is slow)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the AI service cannot be reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model&apos;s answers were not in the required form</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the AI did not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mails waiting for the AI: %1 — %2; they are retried on the next round</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OwnerFilesCard</name>
    <message>
        <source>Files you added from this computer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PendingDraftsView</name>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approved, waiting to send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n unconfirmed</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n draft(s) waiting for your approval</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing is waiting for approval.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProposalBar</name>
    <message>
        <source>Yes, mark ordered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The customer accepted quote %1. Mark the job as ordered?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Customer&apos;s words: “%1”</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QuoteEditor</name>
    <message>
        <source>Row %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subtotal ex GST %1 · GST %2 · Total inc GST %3 · Deposit %4% %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quote</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Product</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description (the customer reads it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width mm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Height mm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unit price ex GST</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line ex GST</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make quote and draft the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PDF goes with a reply draft; nothing is sent until you approve it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview in Chinese</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This quote as a PDF with Chinese labels, for you to check; the customer gets the English one</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <source>Mark as lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. chose another supplier, price too high</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why was this inquiry lost?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Recorder</name>
    <message>
        <source>No microphone found. Connect a microphone or headset and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The microphone “%1” cannot be opened; another program may be using it, or access is not allowed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The microphone failed or was unplugged; recording stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Windows does not allow this app to use the microphone. Turn it on in Settings → Privacy &amp; security → Microphone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow microphone access in the system prompt, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too short — hold the button while you speak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sound is coming from the microphone. Check that it is connected and that microphone access is allowed in the system privacy settings.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReminderCard</name>
    <message>
        <source>Draft the follow-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the inquiry</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Snooze %n day(s)</source>
        <translation>
            <numerusform>Snooze %n day</numerusform>
            <numerusform>Snooze %n days</numerusform>
        </translation>
    </message>
    <message>
        <source>Mark lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snoozed until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marked lost</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReminderDialog</name>
    <message>
        <source>Follow-up reminder: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Rhythm</name>
    <message>
        <source>Reply to the customer soon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrange the measure on site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chase the factory&apos;s quote</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact the customer again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the factory has the order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check production progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrange the installation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow it up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 working days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Low-confidence classification or extraction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merged on the phone number alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model could not understand this email</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs your confirmation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dddd d MMMM</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RouteMap</name>
    <message>
        <source>%1 km</source>
        <translation>%1 km</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>The endpoint URL must start with http:// or https://</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a mail address: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bot token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is saved in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Microsoft account</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AI model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Telegram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other mailbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check mail every (min)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check OneDrive every (min)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First sync fetches (days)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quiet hours from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quiet hours until</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Office address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company mail addresses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ABN (on quotes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company address (on quotes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company phone (on quotes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deposit on acceptance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start when I log in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft the first reply to each new inquiry (waits for my approval)</source>
        <translation>Draft the first reply to each new inquiry (waits for my approval)</translation>
    </message>
    <message>
        <source>Mail from these addresses is ours, never a customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StageDialog</name>
    <message>
        <source>Advance stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. measured on site, quote sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StatsWindow</name>
    <message>
        <source>Pipeline value %1 · quotes sent this week %2 (%3), this month %4 (%5) · won this week %6 (%7), this month %8 (%9) · win rate %10</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quotes yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline value by stage (current quotes, inc GST, AUD)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing in this period yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New inquiries per week (from Monday)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First reply (median hours) per week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per month: inquiries → measured → quoted → ordered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inquiries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quoted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ordered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working days spent in each stage (average)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AI calls: %1 (failed %2) · estimated cost %3 · new inquiries %4 · per inquiry %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens in / out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tier %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tier / purpose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classes you changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fields you edited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drafts approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rewritten before approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of text changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classify mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extract fields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write drafts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revise drafts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chinese rendering of drafts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summarise conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memories from conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overview · cost and quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost and quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy from your corrections, per week</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TelegramSettingsPage</name>
    <message>
        <source>The bot token looks wrong: BotFather&apos;s tokens look like 123456789:AA…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set by INQUIRY_BRIDGE_TELEGRAM_TOKEN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved in the system keyring (type to replace)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the token from @BotFather</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send /start %1 to your bot from your phone. Valid until %2, single use.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press New code, then send /start CODE to your bot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not paired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group %1 (set by INQUIRY_BRIDGE_TELEGRAM_CHAT_ID): buttons work only after you send /start CODE in that group.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat %1 (set by INQUIRY_BRIDGE_TELEGRAM_CHAT_ID)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1chat %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the token…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token works (bot @%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Telegram rejected this token. Copy it again from @BotFather.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot reach Telegram. Check the network and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Telegram answered with an error. Try again later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the bot token first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off: alerts only appear on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not set up: paste the bot token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for pairing: send /start CODE to your bot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On: alerts are also sent to your Telegram.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Telegram alerts and approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Get alerts on your phone and approve drafts with a button. In Telegram, open @BotFather, send /newbot and follow the steps; paste the token it gives you below. Then press New code and send /start CODE to your new bot. Only that chat is trusted; typed words never send an email.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send alerts to Telegram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bot token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pairing code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paired chat</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrayController</name>
    <message>
        <source>Background work is not running</source>
        <translation>Background work is not running</translation>
    </message>
    <message>
        <source>Background work runs on this computer</source>
        <translation>Background work runs on this computer</translation>
    </message>
    <message>
        <source>Background work runs on %1</source>
        <translation>Background work runs on %1</translation>
    </message>
    <message>
        <source>Inquiry Bridge</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n inquiries need you</source>
        <translation>
            <numerusform>%n inquiry needs you</numerusform>
            <numerusform>%n inquiries need you</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing needs you right now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open board</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evening briefing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overview · cost and quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Welcome window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave the demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VisitDialog</name>
    <message>
        <source>Looking at your calendar…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already booked for %1; nothing was booked twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It is in your Outlook calendar.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It is in the app&apos;s calendar.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Booked: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The confirmation email to the customer waits in Approvals (draft #%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fri</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sun</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measure visit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free times in your calendar (working days, with time to drive). Choose one and confirm: the visit is booked and a confirmation email waits for your approval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find free times</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirm this time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VoiceSettingsPage</name>
    <message>
        <source>Choose a Whisper model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No microphone found. Connect a microphone or headset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n microphone(s): </source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>In use: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>set by the environment variable %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chosen in these settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bundled with the app</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active model: Whisper %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Languages: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chinese (Mandarin), English and other languages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>English only — Chinese speech cannot be recognised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: the bundled model is used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice dictation (local, nothing leaves this PC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whisper model found. Languages: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To dictate in Chinese you need a multilingual Whisper model, %1 (about %2). Press “Download” once (if huggingface.co is slow or blocked, type a mirror such as https://hf-mirror.com below first), or bring the model on a USB stick as a folder or zip and press “Import”. The app never downloads models by itself, only when you press Download.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download %1 (about %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import from folder or zip…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download mirror</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty = huggingface.co</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spoken language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longest recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Microphone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty = the bundled English model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set by the environment variable %1; change it there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use bundled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic (Chinese or English)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chinese (Mandarin, written in Simplified characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>English</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer&apos;s processor (works everywhere)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA graphics card</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>8-bit integers (fastest on a normal computer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>8-bit integers and 16-bit floats (graphics card)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>16-bit floats (graphics card)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>32-bit floats (most exact, slowest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check microphone</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
