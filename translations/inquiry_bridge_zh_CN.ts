<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AccountSettingsPage</name>
    <message>
        <source>Using a preset access token (INQUIRY_BRIDGE_GRAPH_TOKEN).</source>
        <translation>正在使用预设的访问令牌（INQUIRY_BRIDGE_GRAPH_TOKEN）。</translation>
    </message>
    <message>
        <source>Signed in as %1</source>
        <translation>已登录：%1</translation>
    </message>
    <message>
        <source>Not signed in. Mail and OneDrive are not synced.</source>
        <translation>未登录。邮件和 OneDrive 不会同步。</translation>
    </message>
    <message>
        <source>Enter the Application (client) ID from step 6 first.</source>
        <translation>请先填入第 6 步复制的「应用程序(客户端) ID」。</translation>
    </message>
    <message>
        <source>Waiting for the browser sign-in…</source>
        <translation>正在等待浏览器登录…</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Application (client) ID</source>
        <translation>应用程序(客户端) ID</translation>
    </message>
    <message>
        <source>Sign in with Microsoft</source>
        <translation>登录微软</translation>
    </message>
    <message>
        <source>Sign out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <source>e.g. 00000000-0000-0000-0000-000000000000</source>
        <translation>例如 00000000-0000-0000-0000-000000000000</translation>
    </message>
    <message>
        <source>&lt;b&gt;This copy of the app has no Microsoft app id yet.&lt;/b&gt; Register it once (about 5 minutes, free):&lt;ol&gt;&lt;li&gt;Open &lt;a href=&apos;https://portal.azure.com&apos;&gt;portal.azure.com&lt;/a&gt; → Microsoft Entra ID → App registrations → New registration.&lt;/li&gt;&lt;li&gt;Name it Inquiry Bridge; account types: &lt;i&gt;Accounts in any organizational directory and personal Microsoft accounts&lt;/i&gt;.&lt;/li&gt;&lt;li&gt;Redirect URI: &lt;i&gt;Public client/native (mobile &amp;amp; desktop)&lt;/i&gt;, &lt;code&gt;http://localhost&lt;/code&gt; → Register.&lt;/li&gt;&lt;li&gt;Authentication → &lt;i&gt;Allow public client flows&lt;/i&gt;: Yes → Save.&lt;/li&gt;&lt;li&gt;API permissions → Add → Microsoft Graph → Delegated: Mail.ReadWrite, Mail.Send, Files.ReadWrite, Calendars.ReadWrite, MailboxSettings.ReadWrite, User.Read, offline_access.&lt;/li&gt;&lt;li&gt;Copy the &lt;i&gt;Application (client) ID&lt;/i&gt; from Overview into the field below, then press Sign in with Microsoft.&lt;/li&gt;&lt;/ol&gt;</source>
        <translation>&lt;b&gt;这份软件还没有微软应用 ID。&lt;/b&gt;只需在微软注册一次（约 5 分钟，免费）：&lt;ol&gt;&lt;li&gt;打开 &lt;a href=&apos;https://portal.azure.com&apos;&gt;portal.azure.com&lt;/a&gt; → Microsoft Entra ID → 应用注册 → 新注册。&lt;/li&gt;&lt;li&gt;名称填 Inquiry Bridge；受支持的帐户类型选&lt;i&gt;任何组织目录中的帐户和个人 Microsoft 帐户&lt;/i&gt;。&lt;/li&gt;&lt;li&gt;重定向 URI：平台选&lt;i&gt;公共客户端/本机(移动和桌面)&lt;/i&gt;，填 &lt;code&gt;http://localhost&lt;/code&gt; → 注册。&lt;/li&gt;&lt;li&gt;身份验证 → &lt;i&gt;允许公共客户端流&lt;/i&gt;：是 → 保存。&lt;/li&gt;&lt;li&gt;API 权限 → 添加权限 → Microsoft Graph → 委托的权限：Mail.ReadWrite、Mail.Send、Files.ReadWrite、Calendars.ReadWrite、MailboxSettings.ReadWrite、User.Read、offline_access。&lt;/li&gt;&lt;li&gt;在「概述」里复制&lt;i&gt;应用程序(客户端) ID&lt;/i&gt;，粘贴到下面的框里，再点「登录微软」。&lt;/li&gt;&lt;/ol&gt;</translation>
    </message>
</context>
<context>
    <name>AiNeeded</name>
    <message>
        <source>No AI model is set up yet, and this needs one. Open Settings → AI model, fill in “Endpoint URL”, then try again.</source>
        <translation>还没有设置 AI 模型，这一步需要它：请打开 设置 → AI 模型，填写「服务地址」后再试。</translation>
    </message>
    <message>
        <source>Open AI settings</source>
        <translation>打开 AI 设置</translation>
    </message>
    <message>
        <source>AI model needed</source>
        <translation>需要 AI 模型</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Inquiry Bridge</source>
        <translation>询盘桥</translation>
    </message>
</context>
<context>
    <name>ApprovalWindow</name>
    <message>
        <source>Review reply before sending</source>
        <translation>发送前审阅回复</translation>
    </message>
    <message>
        <source>To</source>
        <translation>收件人</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Attachments</source>
        <translation>附件</translation>
    </message>
    <message>
        <source>Add a file from this computer…</source>
        <translation>添加本机文件…</translation>
    </message>
    <message>
        <source>Attach any file on this computer, e.g. the quote PDF you just made</source>
        <translation>附加本机上的任意文件，例如刚做好的报价单 PDF</translation>
    </message>
    <message>
        <source>Save edits</source>
        <translation>保存修改</translation>
    </message>
    <message>
        <source>I have checked the unconfirmed values; they are correct</source>
        <translation>我已核对未经确认的内容，确认无误</translation>
    </message>
    <message>
        <source>What should change? (Chinese is fine)</source>
        <translation>要改什么？（用中文写即可）</translation>
    </message>
    <message>
        <source>Revise</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Approve and send</source>
        <translation>批准并发送</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>cannot be attached</source>
        <translation>无法附加</translation>
    </message>
    <message>
        <source>This inquiry has no files to attach.</source>
        <translation>此询盘没有可附加的文件。</translation>
    </message>
    <message>
        <source>%1 attached, %2 in total</source>
        <translation>已选 %1 个附件，共 %2</translation>
    </message>
    <message>
        <source>This customer is complaining: %1 — please look first</source>
        <translation>该客户在投诉：%1，请先看一下再批准</translation>
    </message>
    <message>
        <source>Your instruction</source>
        <translation>您的指示</translation>
    </message>
    <message>
        <source>you asked for this, the English does not say it: %1</source>
        <translation>您要求说明，但英文草稿里没有：%1</translation>
    </message>
    <message>
        <source>most of this draft repeats the customer&apos;s own email; is it the reply you want?</source>
        <translation>这份草稿大部分是在重复客户自己的来信，这是您要的回复吗？</translation>
    </message>
    <message>
        <source>the Chinese for you and the English that is sent disagree on: %1 — click “Translate again” or correct the English</source>
        <translation>中文译文和要发出的英文不一致：%1 —— 请点「重新翻译」，或改正英文</translation>
    </message>
    <message>
        <source>Not in the Chinese</source>
        <translation>中文未体现</translation>
    </message>
    <message>
        <source>the English sends these values, the Chinese does not show them: %1</source>
        <translation>英文会发出这些内容，中文里没有体现：%1</translation>
    </message>
    <message>
        <source>The file %1 cannot be attached: %2</source>
        <translation>文件 %1 无法附加：%2</translation>
    </message>
    <message>
        <source>The attachments add up to %1, over Outlook&apos;s usual 35 MB limit: the email may be refused</source>
        <translation>附件合计 %1，超过 Outlook 通常的 35 MB 上限：邮件可能被退回</translation>
    </message>
    <message>
        <source>Chinese translation for you</source>
        <translation>给您看的中文译文</translation>
    </message>
    <message>
        <source>Only you read this; the customer gets the English</source>
        <translation>只有您看得到；客户收到的是英文</translation>
    </message>
    <message>
        <source>The English that is sent</source>
        <translation>实际发出的英文</translation>
    </message>
    <message>
        <source>Editable: this text is what the customer receives</source>
        <translation>可以修改：客户收到的就是这段文字</translation>
    </message>
    <message>
        <source>Translate again</source>
        <translation>重新翻译</translation>
    </message>
    <message>
        <source>The English text changed. Click “Translate again” to see it in Chinese.</source>
        <translation>英文内容已修改。请点击「重新翻译」查看中文。</translation>
    </message>
    <message>
        <source>Choose a file to attach</source>
        <translation>选择要附加的文件</translation>
    </message>
    <message>
        <source>Adding the file…</source>
        <translation>正在添加文件…</translation>
    </message>
    <message>
        <source>Added %1</source>
        <translation>已添加 %1</translation>
    </message>
    <message>
        <source>NOT SENT — draft</source>
        <translation>未发送 — 草稿</translation>
    </message>
    <message>
        <source>NOT SENT — waiting for your approval</source>
        <translation>未发送 — 等待您批准</translation>
    </message>
    <message>
        <source>NOT SENT — approved, waiting to send</source>
        <translation>未发送 — 已批准，等待发送</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>正在发送…</translation>
    </message>
    <message>
        <source>SENT</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Discarded — not sent</source>
        <translation>已放弃 — 未发送</translation>
    </message>
    <message>
        <source>NOT SENT — sending failed, the draft is kept</source>
        <translation>未发送 — 发送失败，草稿已保留</translation>
    </message>
    <message>
        <source>Replaced by a revised draft — not sent</source>
        <translation>已被修改稿取代 — 未发送</translation>
    </message>
    <message>
        <source>Translating into Chinese…</source>
        <translation>正在翻译成中文…</translation>
    </message>
    <message>
        <source>An email went to this customer in the last %1 days: %2 “%3”</source>
        <translation>最近 %1 天内已给该客户发过邮件：%2「%3」</translation>
    </message>
    <message>
        <source>The recipient (%1) is not the inquiry&apos;s customer (%2)</source>
        <translation>收件人（%1）不是该询盘的客户（%2）</translation>
    </message>
    <message>
        <source>Unconfirmed</source>
        <translation>未经确认</translation>
    </message>
    <message>
        <source>these values are not in your instruction or the emails: %1</source>
        <translation>以下内容不在您的指示或往来邮件中：%1</translation>
    </message>
    <message>
        <source>The Chinese is up to date.</source>
        <translation>中文已是最新。</translation>
    </message>
    <message>
        <source>This is a sample reply from the demo data, so it is not sent. Once your mailbox is connected, approving a reply sends it.</source>
        <translation>这是示例数据里的示例回复，不会发送。连接您的邮箱后，批准的回复才会真的发出。</translation>
    </message>
    <message>
        <source>Please check the highlighted unconfirmed values first.</source>
        <translation>请先核对高亮的未经确认内容。</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Not sent: %1 (the draft is kept)</source>
        <translation>未发送：%1（草稿已保留）</translation>
    </message>
    <message>
        <source>Discarded. Nothing was sent.</source>
        <translation>已放弃，没有发送任何邮件。</translation>
    </message>
    <message>
        <source>Write what should change first.</source>
        <translation>请先写下要修改的地方。</translation>
    </message>
    <message>
        <source>Revising the draft…</source>
        <translation>正在修改草稿…</translation>
    </message>
    <message>
        <source>Generating… %1</source>
        <translation>正在生成…%1</translation>
    </message>
    <message>
        <source>Revised draft ready — please review it again.</source>
        <translation>修改稿已生成——请重新审阅。</translation>
    </message>
</context>
<context>
    <name>AttachmentStrip</name>
    <message>
        <source>Save attachment</source>
        <translation>保存附件</translation>
    </message>
    <message>
        <source>Show %1 more…</source>
        <translation>再显示 %1 个…</translation>
    </message>
    <message>
        <source>%1 more files in this email</source>
        <translation>这封邮件还有 %1 个文件</translation>
    </message>
    <message>
        <source>%1 more attachments not kept (too many in one email)</source>
        <translation>还有 %1 个附件未保存（一封邮件的附件太多）</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
</context>
<context>
    <name>AttentionCard</name>
    <message>
        <source>Confirm</source>
        <translation>确认</translation>
    </message>
    <message>
        <source>Open the inquiry</source>
        <translation>打开询盘</translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation>已确认</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>BoardModel</name>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Suburb</source>
        <translation>区域</translation>
    </message>
    <message>
        <source>Products</source>
        <translation>产品</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>分类</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Who owes a reply</source>
        <translation>该谁回复</translation>
    </message>
    <message>
        <source>Last contact</source>
        <translation>最近联系</translation>
    </message>
    <message>
        <source>Days in stage</source>
        <translation>本阶段天数</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <source>We owe · %1</source>
        <translation>待我们回复 · %1</translation>
    </message>
    <message>
        <source>They owe · %1</source>
        <translation>等客户回复 · %1</translation>
    </message>
    <message>
        <source>Needs your confirmation</source>
        <translation>需要您确认</translation>
    </message>
    <message numerus="yes">
        <source>%n draft(s) waiting for approval</source>
        <translation>
            <numerusform>%n 份草稿待审批</numerusform>
        </translation>
    </message>
    <message>
        <source>A on site</source>
        <translation>A 上门量尺</translation>
    </message>
    <message>
        <source>B remote</source>
        <translation>B 远程报价</translation>
    </message>
    <message>
        <source>C other</source>
        <translation>C 非询盘</translation>
    </message>
</context>
<context>
    <name>BoardPage</name>
    <message>
        <source>Guesses to check: low confidence, a merge on the phone alone, unreadable mail</source>
        <translation>请核对的判断：把握不大的分类、仅凭电话合并的邮件、没看懂的邮件</translation>
    </message>
    <message numerus="yes">
        <source>%n inquiries</source>
        <translation>
            <numerusform>共 %n 条询盘</numerusform>
        </translation>
    </message>
    <message>
        <source>Open the welcome window</source>
        <translation>打开入门向导</translation>
    </message>
    <message>
        <source>No inquiry matches these filters.</source>
        <translation>没有符合筛选条件的询盘。</translation>
    </message>
    <message>
        <source>No inquiries yet. Connect your mailbox (Microsoft 365 / Outlook, or another mailbox: Gmail, QQ, 163, any IMAP), set up the AI or try the demo data from the welcome window.</source>
        <translation>还没有询盘。请在入门向导里连接邮箱（微软 365 / Outlook，或其他邮箱：Gmail、QQ、163、任何 IMAP 邮箱）、设置 AI，或先试用示例数据。</translation>
    </message>
    <message>
        <source>All (%1)</source>
        <translation>全部 (%1)</translation>
    </message>
    <message>
        <source>Needs me (%1)</source>
        <translation>需要我处理 (%1)</translation>
    </message>
    <message>
        <source>Needs your confirmation (%1)</source>
        <translation>需要您确认 (%1)</translation>
    </message>
    <message>
        <source>Search name, email, phone or suburb</source>
        <translation>搜索姓名、邮箱、电话或区域</translation>
    </message>
    <message>
        <source>All classes</source>
        <translation>全部分类</translation>
    </message>
    <message>
        <source>Waiting on our reply, overdue in its stage, or a draft awaits approval</source>
        <translation>待我们回复、阶段超期或有草稿待审批</translation>
    </message>
</context>
<context>
    <name>BriefingWindow</name>
    <message>
        <source>Tomorrow, %1</source>
        <translation>明天，%1</translation>
    </message>
    <message>
        <source>New inquiries (24 h): %1</source>
        <translation>新询盘（24 小时内）：%1</translation>
    </message>
    <message>
        <source>Drafts waiting for approval: %1</source>
        <translation>待您批准的草稿：%1</translation>
    </message>
    <message>
        <source>Overdue: %1</source>
        <translation>超过阶段期限：%1</translation>
    </message>
    <message>
        <source>Outlook calendar not read (not signed in to Microsoft)</source>
        <translation>未读取 Outlook 日历（未登录微软账户）</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>No office address set: from the first stop</source>
        <translation>未设置公司地址，从第一站出发</translation>
    </message>
    <message>
        <source>about %1 km in a straight line</source>
        <translation>直线约 %1 公里</translation>
    </message>
    <message>
        <source>Open the route in Google Maps</source>
        <translation>在 Google 地图中打开路线</translation>
    </message>
    <message>
        <source>From the office and back</source>
        <translation>从公司出发并返回</translation>
    </message>
    <message>
        <source>The office address “%1” could not be placed: from the first stop, without the trips to and from the office</source>
        <translation>公司地址「%1」无法定位：从第一站出发，距离不含往返公司</translation>
    </message>
    <message>
        <source>Back to the office: about %1 km</source>
        <translation>最后返回公司约 %1 公里</translation>
    </message>
    <message>
        <source>Addresses that could not be placed (%1): not in the route or the map link, arrange these yourself</source>
        <translation>未能定位的地址（%1）：不在路线和地图链接中，请自行安排</translation>
    </message>
    <message>
        <source>Inquiry #%1</source>
        <translation>询盘 #%1</translation>
    </message>
    <message>
        <source>address unknown</source>
        <translation>地址未知</translation>
    </message>
    <message>
        <source>%1 km</source>
        <translation>%1 公里</translation>
    </message>
    <message>
        <source>customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>you</source>
        <translation>您</translation>
    </message>
    <message>
        <source>Last (%1): %2</source>
        <translation>最近（%1）：%2</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>Email</source>
        <translation>邮件</translation>
    </message>
    <message>
        <source>Nothing to confirm</source>
        <translation>没有需要确认的事项</translation>
    </message>
    <message>
        <source>Nothing overdue</source>
        <translation>没有超期的工作</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Tomorrow&apos;s appointments</source>
        <translation>明天的预约</translation>
    </message>
    <message>
        <source>Waiting for a measure (A) · suggested route</source>
        <translation>等待上门量尺（A 类）· 建议路线</translation>
    </message>
    <message>
        <source>The round on the map</source>
        <translation>地图上的路线</translation>
    </message>
    <message>
        <source>Needs your confirmation</source>
        <translation>需要您确认</translation>
    </message>
    <message>
        <source>Overdue in their stage</source>
        <translation>超过阶段期限</translation>
    </message>
    <message>
        <source>Evening briefing</source>
        <translation>今晚简报</translation>
    </message>
</context>
<context>
    <name>ChatDock</name>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
</context>
<context>
    <name>ChatPanel</name>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>Current customer is now %1</source>
        <translation>当前客户已改为 %1</translation>
    </message>
    <message>
        <source>Several customers matched: no current customer until you pick one</source>
        <translation>找到多位客户：在您选定之前，没有当前客户</translation>
    </message>
    <message>
        <source>move inquiry #%1 to the stage “%2”</source>
        <translation>把询盘 #%1 改到「%2」阶段</translation>
    </message>
    <message>
        <source>add this note to inquiry #%1: %2</source>
        <translation>给询盘 #%1 添加备注：%2</translation>
    </message>
    <message>
        <source>add this to your knowledge base: %1</source>
        <translation>把这条记进知识库：%1</translation>
    </message>
    <message>
        <source>create the OneDrive folder of inquiry #%1</source>
        <translation>为询盘 #%1 创建 OneDrive 文件夹</translation>
    </message>
    <message>
        <source>Proposal #%1 confirmed: done.</source>
        <translation>建议 #%1 已确认并执行。</translation>
    </message>
    <message>
        <source>Proposal #%1 dropped: nothing was changed.</source>
        <translation>建议 #%1 已放弃，没有任何改动。</translation>
    </message>
    <message>
        <source>Proposal #%1 could not be carried out.</source>
        <translation>建议 #%1 未能执行。</translation>
    </message>
    <message>
        <source>That file is no longer on this computer.</source>
        <translation>这个文件已不在本机，可能已被删除或移动。</translation>
    </message>
    <message>
        <source>Today&apos;s conversation · %1</source>
        <translation>今天的对话 · %1</translation>
    </message>
    <message>
        <source>Knowledge</source>
        <translation>知识库</translation>
    </message>
    <message>
        <source>Your products, lead times, warranty and prices: drafts and the assistant read it</source>
        <translation>您的产品、交货期、保修和价格：起草和助手都会读取</translation>
    </message>
    <message>
        <source>What the assistant remembers</source>
        <translation>助手记住的事</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Enter to send, Shift+Enter for a new line</source>
        <translation>Enter 发送，Shift+Enter 换行</translation>
    </message>
    <message>
        <source>Ask in your own words, e.g. “reply to him: we can measure next Tuesday”</source>
        <translation>用您自己的话说，例如“给他回复，说下周二上门量尺”</translation>
    </message>
    <message>
        <source>No AI model is set up yet, so the assistant cannot answer. Add the AI service in Settings.</source>
        <translation>还没有设置 AI 服务，助手暂时无法回答。请在设置中添加 AI 服务。</translation>
    </message>
    <message>
        <source>Open AI settings</source>
        <translation>打开 AI 设置</translation>
    </message>
    <message>
        <source>You</source>
        <translation>我</translation>
    </message>
    <message>
        <source>Open draft</source>
        <translation>打开草稿</translation>
    </message>
    <message>
        <source>Files found:</source>
        <translation>找到的文件：</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>正在思考…</translation>
    </message>
    <message>
        <source>Proposed, not done:</source>
        <translation>助手建议（未执行）：</translation>
    </message>
    <message>
        <source>Confirm this change</source>
        <translation>确认执行</translation>
    </message>
    <message>
        <source>Drop it</source>
        <translation>放弃</translation>
    </message>
</context>
<context>
    <name>ComposeDialog</name>
    <message>
        <source>Draft a reply</source>
        <translation>起草回复</translation>
    </message>
    <message>
        <source>What should the reply say? Write or dictate it in Chinese, e.g. 报价15000含GST，下周二上门量尺</source>
        <translation>回复要说什么？用中文输入或口述，例如：报价15000含GST，下周二上门量尺</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Write the draft</source>
        <translation>起草</translation>
    </message>
    <message>
        <source>Reply to %1 &lt;%2&gt;. Nothing is sent until you approve it.</source>
        <translation>回复 %1 &lt;%2&gt;。在您批准之前不会发送。</translation>
    </message>
    <message>
        <source>Note: an email went to this customer on %1 (“%2”).</source>
        <translation>注意：%1 已给该客户发过邮件（「%2」）。</translation>
    </message>
    <message>
        <source>Generating… the text so far is shown below</source>
        <translation>正在生成…下面是已写好的部分</translation>
    </message>
    <message>
        <source>Writing the draft…</source>
        <translation>正在起草…</translation>
    </message>
</context>
<context>
    <name>CustomerBar</name>
    <message>
        <source>Clear the current customer</source>
        <translation>清除当前客户</translation>
    </message>
    <message>
        <source>No current customer — select an inquiry on the board</source>
        <translation>未选择客户 — 在看板上选中一个询盘</translation>
    </message>
    <message>
        <source>Current customer: %1 #%2</source>
        <translation>当前客户：%1 #%2</translation>
    </message>
</context>
<context>
    <name>DatabaseSettingsPage</name>
    <message>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <source>Usable: an empty database. Switching makes the tables; to bring this computer&apos;s data along, copy it first (inquiry-bridge store copy).</source>
        <translation>可以使用：这是一个空的数据库。切换后会建立表；要把本机的数据带过去，请先复制（inquiry-bridge store copy）。</translation>
    </message>
    <message>
        <source>Usable: it already holds Inquiry Bridge data (%1 inquiries); after switching this computer shares it with the others that use it.</source>
        <translation>可以使用：里面已有询盘桥的数据（%1 个询盘）；切换后本机与使用它的其他电脑共用这些数据。</translation>
    </message>
    <message>
        <source>Its tables are upgraded when this version first opens it.</source>
        <translation>本版本第一次打开它时会升级表结构。</translation>
    </message>
    <message>
        <source>Saved. Restart Inquiry Bridge to use this database.</source>
        <translation>已保存。请重新启动询盘桥以使用这个数据库。</translation>
    </message>
    <message>
        <source>Saved. After a restart the data is in this computer&apos;s folder again.</source>
        <translation>已保存。重新启动后数据重新保存在本机的数据文件夹。</translation>
    </message>
    <message>
        <source>Now: the PostgreSQL database %1</source>
        <translation>当前：PostgreSQL 数据库 %1</translation>
    </message>
    <message>
        <source>Now: this computer&apos;s data folder (SQLite)</source>
        <translation>当前：本机的数据文件夹（SQLite）</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>Your data lives in this computer&apos;s data folder. To share it with other computers and an always-on box, enter a PostgreSQL address, press Test, then Switch. Testing never changes the database.</source>
        <translation>您的数据保存在本机的数据文件夹。要与其他电脑和一台常开的主机共用，请输入 PostgreSQL 地址，点“测试”，再点“切换”。测试不会改动数据库。</translation>
    </message>
    <message>
        <source>PostgreSQL address</source>
        <translation>PostgreSQL 地址</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Switch to this database</source>
        <translation>切换到这个数据库</translation>
    </message>
    <message>
        <source>Use this computer&apos;s folder</source>
        <translation>使用本机文件夹</translation>
    </message>
</context>
<context>
    <name>DemoBanner</name>
    <message>
        <source>You are looking at demo data</source>
        <translation>您正在看示例数据</translation>
    </message>
    <message>
        <source>fictional customers in a separate folder; nothing syncs or is sent, and your own data is untouched.</source>
        <translation>虚构的客户，放在单独的文件夹里；不同步、不发信，您自己的数据没有被动过。</translation>
    </message>
    <message>
        <source>Leave the demo</source>
        <translation>退出示例</translation>
    </message>
    <message>
        <source>Connect my mailbox</source>
        <translation>连接我的邮箱</translation>
    </message>
</context>
<context>
    <name>DesktopApp</name>
    <message>
        <source>Reminder</source>
        <translation>跟进提醒</translation>
    </message>
    <message>
        <source>The demo data does not sync</source>
        <translation>示例数据不会同步</translation>
    </message>
    <message>
        <source>These are sample customers, so there is no mailbox to read. Press “Connect my mailbox” above to sync your own mail.</source>
        <translation>这些是示例客户，没有可读取的邮箱。点上方的「连接我的邮箱」即可同步您自己的邮件。</translation>
    </message>
    <message>
        <source>No mailbox connected yet</source>
        <translation>还没有连接邮箱</translation>
    </message>
    <message>
        <source>Nothing to sync until a mailbox is connected: Settings → Microsoft account → Sign in with Microsoft (Outlook / Microsoft 365), or Settings → Other mailbox (Gmail, QQ, 163, any IMAP).</source>
        <translation>连接邮箱之前没有可同步的内容：设置 → 微软账户 → 登录微软（Outlook / 微软 365），或 设置 → 其他邮箱（Gmail、QQ、163、任何 IMAP 邮箱）。</translation>
    </message>
</context>
<context>
    <name>DictationButton</name>
    <message>
        <source>Recording discarded</source>
        <translation>录音已丢弃</translation>
    </message>
    <message>
        <source>Discarded</source>
        <translation>已丢弃</translation>
    </message>
    <message>
        <source>Recording… click again (or F9) to finish</source>
        <translation>正在录音……再点一次（或按 F9）结束</translation>
    </message>
    <message>
        <source>Recognising…</source>
        <translation>正在识别……</translation>
    </message>
    <message>
        <source>Recognising… %1%</source>
        <translation>正在识别…… %1%</translation>
    </message>
    <message>
        <source>Recognition cancelled; the recording is kept</source>
        <translation>已取消识别，录音已保留</translation>
    </message>
    <message>
        <source>The current voice model only understands English; nothing was inserted.</source>
        <translation>当前语音模型只懂英文，没有插入任何文字。</translation>
    </message>
    <message>
        <source>Recognition failed: %1</source>
        <translation>识别失败：%1</translation>
    </message>
    <message>
        <source>No speech was heard — please try again</source>
        <translation>没有听到说话，请再试一次</translation>
    </message>
    <message>
        <source>Not sure this was heard right. If you spoke Chinese: the current voice model only understands English, nothing was inserted.</source>
        <translation>不确定是否听对了。如果您说的是中文：当前语音模型只懂英文，所以没有插入任何文字。</translation>
    </message>
    <message>
        <source>Not sure this was heard right — check it:</source>
        <translation>不确定是否听对了，请核对：</translation>
    </message>
    <message>
        <source>Inserted — edit it before sending or saving</source>
        <translation>已插入，请检查修改后再发送或保存</translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation>按住说话</translation>
    </message>
    <message>
        <source>Release to finish</source>
        <translation>松开结束</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Hold to speak and release to finish, or click once to start and again to stop.
Shortcut: %1 in the text box. Esc discards the recording.
The words are inserted at the cursor for you to edit.</source>
        <translation>按住说话、松开结束；或者点一下开始、再点一下结束。
在文本框中可用快捷键 %1。按 Esc 丢弃录音。
识别出的文字插入到光标处，可以再修改。</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Recognise the kept recording again</source>
        <translation>重新识别保留的录音</translation>
    </message>
    <message>
        <source>Insert anyway</source>
        <translation>仍然插入</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>Download the Chinese voice model…</source>
        <translation>下载中文语音模型…</translation>
    </message>
</context>
<context>
    <name>Domain</name>
    <message>
        <source>Inquiry</source>
        <translation>询盘</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>上门量尺</translation>
    </message>
    <message>
        <source>Quoting</source>
        <translation>报价中</translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation>跟进</translation>
    </message>
    <message>
        <source>Ordered</source>
        <translation>已下单</translation>
    </message>
    <message>
        <source>Production</source>
        <translation>生产中</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Lost</source>
        <translation>流失</translation>
    </message>
    <message>
        <source>(new)</source>
        <translation>（新建）</translation>
    </message>
    <message>
        <source>A Measure on site</source>
        <translation>A 上门量尺</translation>
    </message>
    <message>
        <source>B Quote remotely</source>
        <translation>B 远程报价</translation>
    </message>
    <message>
        <source>C Not an inquiry</source>
        <translation>C 非询盘</translation>
    </message>
    <message>
        <source>Mail intake</source>
        <translation>邮件导入</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>老板</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>OneDrive</source>
        <translation>OneDrive</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n 天</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n working day(s)</source>
        <translation>
            <numerusform>%n 个工作日</numerusform>
        </translation>
    </message>
    <message>
        <source>overdue %1 d</source>
        <translation>超期 %1 个工作日</translation>
    </message>
    <message>
        <source>We owe a reply</source>
        <translation>待我们回复</translation>
    </message>
    <message>
        <source>Waiting for customer</source>
        <translation>等客户回复</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Settings problem: %1</source>
        <translation>设置有误：%1</translation>
    </message>
    <message>
        <source>Bad input: %1</source>
        <translation>输入有误：%1</translation>
    </message>
    <message>
        <source>The system keyring is unavailable, secrets cannot be stored: %1</source>
        <translation>系统密钥库不可用，无法保存密码或令牌：%1</translation>
    </message>
    <message>
        <source>The database cannot be opened: %1</source>
        <translation>数据库无法打开：%1</translation>
    </message>
    <message>
        <source>The database is damaged. Click Repair to restore the latest backup and re-read the saved mail: %1</source>
        <translation>数据库已损坏。点“修复”从最近的备份恢复，并重新读取保存的邮件：%1</translation>
    </message>
    <message>
        <source>The database is busy: another Inquiry Bridge process is writing; try again shortly (nothing was lost): %1</source>
        <translation>数据库正忙：另一个询盘桥进程正在写入，请稍后再试（没有丢失任何数据）：%1</translation>
    </message>
    <message>
        <source>The data folder cannot be used; check that it exists and is writable: %1</source>
        <translation>数据文件夹无法使用，请检查它存在且可写：%1</translation>
    </message>
    <message>
        <source>The disk is full; free some space and start again (no mail was lost): %1</source>
        <translation>磁盘空间已满，请清理磁盘后重新启动（没有丢失任何邮件）：%1</translation>
    </message>
    <message>
        <source>Malformed email: %1</source>
        <translation>邮件格式损坏：%1</translation>
    </message>
    <message>
        <source>AI service error: %1</source>
        <translation>AI 服务出错：%1</translation>
    </message>
    <message>
        <source>Cannot reach the AI service; check the endpoint and key in Settings: %1</source>
        <translation>无法连接 AI 服务，请检查设置中的地址和密钥：%1</translation>
    </message>
    <message>
        <source>The AI answer broke its format; it will be retried: %1</source>
        <translation>AI 的回答格式不正确，稍后会自动重试：%1</translation>
    </message>
    <message>
        <source>Microsoft 365 error: %1</source>
        <translation>微软邮箱服务出错：%1</translation>
    </message>
    <message>
        <source>Cannot reach the AI service: the address is wrong or the server is not running; check the address in Settings → AI model</source>
        <translation>连不上 AI 服务：地址不对，或者服务没有启动，请在设置 → AI 模型中检查地址</translation>
    </message>
    <message>
        <source>The AI service refused the key: it is wrong or expired; enter it again in Settings → AI model</source>
        <translation>AI 服务拒绝了密钥：密钥不对或已失效，请在设置 → AI 模型中重新填写</translation>
    </message>
    <message>
        <source>The AI service does not know this model name; check the model names in Settings → AI model</source>
        <translation>AI 服务不认识这个模型名称，请在设置 → AI 模型中检查模型名称</translation>
    </message>
    <message>
        <source>This model does not support what the app needs; pick another model, or press Test connection in Settings → AI model</source>
        <translation>这个模型不支持本软件需要的功能，请换一个模型，或在设置 → AI 模型中点“测试连接”</translation>
    </message>
    <message>
        <source>The AI service is busy (too many requests); it will be retried later</source>
        <translation>AI 服务繁忙（请求太多），稍后会自动重试</translation>
    </message>
    <message>
        <source>Please sign in to Microsoft again: %1</source>
        <translation>需要重新登录微软账户：%1</translation>
    </message>
    <message>
        <source>Quote not possible: %1</source>
        <translation>报价无法操作：%1</translation>
    </message>
    <message>
        <source>The database URL is wrong (expected postgresql+psycopg://USER@HOST:PORT/DB); nothing was changed: %1</source>
        <translation>数据库地址有误（应为 postgresql+psycopg://用户@主机:端口/库名），未作任何改动：%1</translation>
    </message>
    <message>
        <source>No database server answers; check the host, port and network. Nothing was changed: %1</source>
        <translation>连不上数据库服务器，请检查地址、端口和网络，未作任何改动：%1</translation>
    </message>
    <message>
        <source>The database server refused the user name or password; nothing was changed: %1</source>
        <translation>数据库服务器拒绝了用户名或密码，未作任何改动：%1</translation>
    </message>
    <message>
        <source>This database holds another application&apos;s data; nothing was changed: %1</source>
        <translation>这个数据库里是别的程序的数据，不是询盘桥的，未作任何改动：%1</translation>
    </message>
    <message>
        <source>This database was made by a newer Inquiry Bridge; update this program first. Nothing was changed: %1</source>
        <translation>这个数据库由更新版本的询盘桥建立，请先升级本程序，未作任何改动：%1</translation>
    </message>
    <message>
        <source>Microsoft is busy; retrying later: %1</source>
        <translation>微软服务繁忙，稍后重试：%1</translation>
    </message>
    <message>
        <source>Not found: %1</source>
        <translation>找不到该项目：%1</translation>
    </message>
    <message>
        <source>Cannot use the file: %1</source>
        <translation>文件无法使用：%1</translation>
    </message>
    <message>
        <source>Not signed in to Microsoft yet: sign in first (Settings → Microsoft account) %1</source>
        <translation>尚未登录微软账户：请先登录（设置 → 微软账户）%1</translation>
    </message>
    <message>
        <source>No Microsoft app id yet: follow the steps on this page to register the app in Azure and enter its id.</source>
        <translation>还没有微软应用 ID：请按本页的步骤在 Azure 注册应用并填入 ID。</translation>
    </message>
    <message>
        <source>Cannot reach Microsoft&apos;s sign-in server. Check the network (or proxy), then press Sign in with Microsoft again.</source>
        <translation>连不上微软登录服务器：请检查网络（或代理）后再点「登录微软」。</translation>
    </message>
    <message>
        <source>Sync state expired; starting a full sync %1</source>
        <translation>同步状态已过期，将重新完整同步 %1</translation>
    </message>
    <message>
        <source>Network dropped; cannot tell whether it went through, stopped to avoid a duplicate: %1</source>
        <translation>网络中断，无法确定操作是否完成，已停止以免重复：%1</translation>
    </message>
    <message>
        <source>Not allowed in the draft&apos;s state: %1</source>
        <translation>草稿状态不允许此操作：%1</translation>
    </message>
    <message>
        <source>The draft has unconfirmed facts; confirm or edit them first: %1</source>
        <translation>草稿中有未经确认的内容，请先确认或修改：%1</translation>
    </message>
    <message>
        <source>Transcription failed: %1</source>
        <translation>语音识别失败：%1</translation>
    </message>
    <message>
        <source>Voice model download failed: %1</source>
        <translation>语音模型下载失败：%1</translation>
    </message>
    <message>
        <source>Cannot import the voice model: %1</source>
        <translation>无法导入语音模型：%1</translation>
    </message>
    <message>
        <source>No microphone available or permission denied: %1</source>
        <translation>没有可用的麦克风或没有权限：%1</translation>
    </message>
    <message>
        <source>Telegram error: %1</source>
        <translation>Telegram 出错：%1</translation>
    </message>
    <message>
        <source>Something went wrong: %1</source>
        <translation>发生错误：%1</translation>
    </message>
    <message>
        <source>This conversation is longer than the model can read at once, even shortened; give the model server a larger context (e.g. llama.cpp -c 8192) or pick another model</source>
        <translation>这段对话超出了这个模型一次能读的长度，缩短后仍然不够；请在模型服务器上把上下文调大（例如 llama.cpp 的 -c 8192），或换一个模型</translation>
    </message>
    <message>
        <source>The AI service is failing or not answering right now; it will be retried later</source>
        <translation>AI 服务暂时出故障或没有响应，稍后会自动重试</translation>
    </message>
    <message>
        <source>Mail server error: %1</source>
        <translation>邮件服务器出错：%1</translation>
    </message>
    <message>
        <source>The mail password was refused: check the user name and use the app password (authorisation code) from the mailbox settings, not the web login password (%1)</source>
        <translation>邮箱密码（授权码）不正确：请检查用户名，并使用邮箱设置里生成的授权码或应用专用密码，不是网页登录密码（%1）</translation>
    </message>
    <message>
        <source>IMAP/SMTP is not enabled for this mailbox: turn it on in the webmail settings and try again (%1)</source>
        <translation>邮箱尚未开启 IMAP/SMTP 服务：请在网页邮箱的设置中开启后再试（%1）</translation>
    </message>
    <message>
        <source>Cannot reach the mail server: check the network, server name and port (%1)</source>
        <translation>无法连接邮件服务器：请检查网络、服务器地址和端口（%1）</translation>
    </message>
    <message>
        <source>No mail app password yet: enter it in Settings → Other mailbox, or set INQUIRY_BRIDGE_MAIL_PASSWORD%1</source>
        <translation>尚未填写邮箱授权码（应用密码）：请在 设置 → 其他邮箱 中填写，或设置 INQUIRY_BRIDGE_MAIL_PASSWORD%1</translation>
    </message>
    <message>
        <source>The incoming mail (IMAP) server is too slow (%1). This round stopped; mail already received is kept, and it is tried again later</source>
        <translation>收信 IMAP 服务器太慢（%1）。本轮同步已停止，已收到的邮件不受影响，稍后自动重试</translation>
    </message>
    <message>
        <source>The incoming mail (IMAP) server answered beyond what the app accepts (%1). Disconnected; mail already received is kept. If this keeps happening, ask the mail provider</source>
        <translation>收信 IMAP 服务器的回答超出了允许的范围（%1）。已断开连接，已收到的邮件不受影响；如果一直这样，请联系邮箱服务商</translation>
    </message>
    <message>
        <source>Refusing a plain-text connection to the mail server (the password could be read): use SSL or STARTTLS (%1)</source>
        <translation>拒绝以明文连接邮件服务器（密码会被窃听）：请使用 SSL 或 STARTTLS（%1）</translation>
    </message>
    <message>
        <source>Unexpected error: %1</source>
        <translation>意外错误：%1</translation>
    </message>
    <message>
        <source>Inquiry Bridge</source>
        <translation>询盘桥</translation>
    </message>
    <message>
        <source>Details were written to the log in %1</source>
        <translation>详细信息已写入日志：%1</translation>
    </message>
    <message>
        <source>Repair</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Repair finished</source>
        <translation>修复完成</translation>
    </message>
    <message>
        <source>The database was repaired. What came back, and anything that could not:</source>
        <translation>数据库已修复。恢复了哪些内容，以及无法恢复的内容：</translation>
    </message>
</context>
<context>
    <name>FileOpen</name>
    <message>
        <source>This file was not opened</source>
        <translation>没有打开这个文件</translation>
    </message>
    <message>
        <source>The name of “%1” hides what it really is (hidden characters, padding or a second extension); it is a program or script of type .%2.</source>
        <translation>“%1”的文件名隐藏了它的真实类型（隐藏字符、大段空格或双重扩展名）；它其实是 .%2 类型的程序或脚本。</translation>
    </message>
    <message>
        <source>“%1” is a program or script (.%2): opening it would run it on this computer.</source>
        <translation>“%1”是可执行程序或脚本（.%2）：打开它就会在这台电脑上运行它。</translation>
    </message>
    <message>
        <source>Inquiry Bridge never opens such files with a click. If you trust the sender and really need it, find it in its folder.</source>
        <translation>询盘桥不会通过点击打开这类文件。如果您信任发件人并且确实需要它，请到它所在的文件夹中自行处理。</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>FirstRunWizard</name>
    <message>
        <source>Loading the demo mailbox…</source>
        <translation>正在导入示例邮件…</translation>
    </message>
    <message>
        <source>Welcome to Inquiry Bridge</source>
        <translation>欢迎使用询盘桥</translation>
    </message>
    <message>
        <source>Inquiry Bridge reads your Outlook mailbox, puts every customer inquiry on one board in Chinese, and drafts English replies that are sent only after you approve them. How would you like to start?</source>
        <translation>询盘桥读取您的 Outlook 邮箱，把每一条客户询盘整理到一个中文看板上，并起草英文回复——只有您批准后才会发送。您想从哪里开始？</translation>
    </message>
    <message>
        <source>Sign in with Microsoft</source>
        <translation>登录微软</translation>
    </message>
    <message>
        <source>Connect your Outlook mailbox and OneDrive (Microsoft 365).</source>
        <translation>连接您的 Outlook 邮箱和 OneDrive（Microsoft 365）。</translation>
    </message>
    <message>
        <source>Connect another mailbox</source>
        <translation>连接其他邮箱</translation>
    </message>
    <message>
        <source>Gmail, QQ Mail, 163/126, iCloud or any IMAP/SMTP mailbox, with an app password.</source>
        <translation>Gmail、QQ邮箱、163/126、iCloud 或任何 IMAP/SMTP 邮箱，使用应用密码（授权码）。</translation>
    </message>
    <message>
        <source>Set up the AI</source>
        <translation>设置 AI</translation>
    </message>
    <message>
        <source>Enter an OpenAI-compatible endpoint and key for sorting mail and drafting.</source>
        <translation>填写兼容 OpenAI 的服务地址和密钥，用于邮件分类和起草回复。</translation>
    </message>
    <message>
        <source>Leave the demo</source>
        <translation>退出示例</translation>
    </message>
    <message>
        <source>Back to your own data folder; the demo stays in its separate folder.</source>
        <translation>回到您自己的数据；示例数据留在它单独的文件夹里。</translation>
    </message>
    <message>
        <source>Try the demo data</source>
        <translation>试用示例数据</translation>
    </message>
    <message>
        <source>Load a sample mailbox of Sydney customers into a separate demo folder. Nothing is sent and your real data is never touched.</source>
        <translation>把一个悉尼客户的示例邮箱导入单独的示例文件夹。不会发送任何邮件，也不会动您的真实数据。</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>稍后再说</translation>
    </message>
    <message>
        <source>Your company (ends every English reply)</source>
        <translation>您的公司资料（写在每封英文回复的落款）</translation>
    </message>
    <message>
        <source>Company name</source>
        <translation>公司名称</translation>
    </message>
    <message>
        <source>Signature</source>
        <translation>落款</translation>
    </message>
    <message>
        <source>Office address</source>
        <translation>办公室地址</translation>
    </message>
    <message>
        <source>e.g. Harbour Aluminium Windows Pty Ltd</source>
        <translation>例如 Harbour Aluminium Windows Pty Ltd</translation>
    </message>
    <message>
        <source>e.g. Kind regards, / your name / phone</source>
        <translation>例如 Kind regards, / 您的英文名 / 电话</translation>
    </message>
    <message>
        <source>where the evening briefing&apos;s measuring route starts, e.g. 5 Factory Rd, Penrith</source>
        <translation>晚间简报的量尺路线从这里出发，例如 5 Factory Rd, Penrith</translation>
    </message>
</context>
<context>
    <name>Fonts</name>
    <message>
        <source>No Chinese font</source>
        <translation>未找到中文字体 / No Chinese font</translation>
    </message>
    <message>
        <source>Chinese text will show as boxes. Install a Chinese font, then restart: {command}</source>
        <translation>中文会显示为方框。请安装中文字体后重新启动 / Chinese shows as boxes; install a Chinese font, then restart: {command}</translation>
    </message>
</context>
<context>
    <name>InquiryDetailView</name>
    <message>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message numerus="yes">
        <source>%n draft(s) waiting for approval</source>
        <translation>
            <numerusform>%n 份草稿待审批</numerusform>
        </translation>
    </message>
    <message>
        <source>No OneDrive folder linked yet</source>
        <translation>还没有关联 OneDrive 文件夹</translation>
    </message>
    <message>
        <source>(choose products)</source>
        <translation>（选择产品）</translation>
    </message>
    <message>
        <source>Select an inquiry on the left to see its details.</source>
        <translation>在左侧选择一条询盘查看详情。</translation>
    </message>
    <message>
        <source>Quote %1 inc GST</source>
        <translation>报价 %1（含 GST）</translation>
    </message>
    <message>
        <source>Advance stage</source>
        <translation>推进阶段</translation>
    </message>
    <message>
        <source>Mark lost</source>
        <translation>标记流失</translation>
    </message>
    <message>
        <source>Draft reply</source>
        <translation>起草回复</translation>
    </message>
    <message>
        <source>Quote…</source>
        <translation>报价单…</translation>
    </message>
    <message>
        <source>Line items with live totals; the PDF goes with a reply you approve</source>
        <translation>逐项填写，合计实时计算；PDF 随回复草稿发出，经您批准才发送</translation>
    </message>
    <message>
        <source>Visit…</source>
        <translation>上门量尺…</translation>
    </message>
    <message>
        <source>Free measuring times from your calendar; confirm one and the customer&apos;s confirmation waits for your approval</source>
        <translation>从您的日历找出可上门量尺的空档；确认一个时间后，给客户的确认邮件会等您批准</translation>
    </message>
    <message>
        <source>Open the waiting draft</source>
        <translation>打开待审批草稿</translation>
    </message>
    <message>
        <source>Open OneDrive folder</source>
        <translation>打开 OneDrive 文件夹</translation>
    </message>
    <message>
        <source>Write the reply in Chinese; you approve the English before anything is sent</source>
        <translation>用中文说要回复什么；英文稿经您批准后才会发送</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>姓名</translation>
    </message>
    <message>
        <source>Email</source>
        <translation>邮箱</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Suburb</source>
        <translation>区域</translation>
    </message>
    <message>
        <source>Products</source>
        <translation>产品</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>分类</translation>
    </message>
    <message>
        <source>any format, e.g. 0412 345 678</source>
        <translation>任意格式，例如 0412 345 678</translation>
    </message>
    <message>
        <source>one size per line, e.g. 2400 x 2100</source>
        <translation>每行一个尺寸，例如 2400 x 2100</translation>
    </message>
    <message>
        <source>Save changes</source>
        <translation>保存修改</translation>
    </message>
    <message>
        <source>Undo changes</source>
        <translation>撤销修改</translation>
    </message>
    <message>
        <source>Add note</source>
        <translation>添加备注</translation>
    </message>
    <message>
        <source>A note about this customer…</source>
        <translation>关于这位客户的备注…</translation>
    </message>
    <message>
        <source>Emails</source>
        <translation>邮件往来</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户资料</translation>
    </message>
    <message>
        <source>Stage history</source>
        <translation>阶段记录</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>To</source>
        <translation>到</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>By</source>
        <translation>操作者</translation>
    </message>
</context>
<context>
    <name>KnowledgeButton</name>
    <message>
        <source>Knowledge base…</source>
        <translation>知识库…</translation>
    </message>
</context>
<context>
    <name>KnowledgeDialog</name>
    <message>
        <source>Not saved: the knowledge base was changed elsewhere (for example an addition you confirmed in the chat). Copy your changes, press Reload, then add them again.</source>
        <translation>未保存：知识库已在别处修改（例如您刚在对话中确认的新增内容）。请先复制您的修改，点「重新载入」，再加回去。</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <source>Empty: drafts and the assistant know nothing of your trade yet.</source>
        <translation>还是空的：起草和助手目前对您的业务一无所知。</translation>
    </message>
    <message>
        <source>%1 characters: drafts and the assistant read all of it.</source>
        <translation>%1 字：起草和助手会读取全部内容。</translation>
    </message>
    <message>
        <source>%1 characters: too long to send whole, so each draft gets the parts that match the customer&apos;s mail.</source>
        <translation>%1 字：内容较长，不会整份发送，每份草稿只取与客户邮件相关的部分。</translation>
    </message>
    <message>
        <source>Not saved yet.</source>
        <translation>尚未保存。</translation>
    </message>
    <message>
        <source>Close without saving your changes to the knowledge base?</source>
        <translation>不保存对知识库的修改就关闭吗？</translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation>知识库</translation>
    </message>
    <message>
        <source>What you know about your trade, in your own words. Every draft and the assistant read it, and a lead time, price or warranty written here counts as yours: a draft that repeats it is not flagged as unconfirmed.</source>
        <translation>用您自己的话写下您的业务知识。每份草稿和助手都会读取；写在这里的交货期、价格或保修算作您本人的话：草稿里出现时不会被标为「未经确认」。</translation>
    </message>
    <message>
        <source>You are trying the demo data: this is your own knowledge base, not the demo&apos;s. What you write here stays when you leave the demo.</source>
        <translation>您正在试用示例数据：这里是您自己的知识库，不是示例的。在这里写的内容，退出示例后仍然保留。</translation>
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
        <translation>在标题下每行写一条，例如：
## 产品 — 您做的门窗、系列和尺寸限制
## 选项与配件 — 颜色、五金、纱窗
## 玻璃 — 提供哪些玻璃、什么情况用哪种
## 交货期 — 每种产品要多久
## 保修 — 保修什么、保多久
## 价格规则 — GST、定金、哪些另外收费
## 标准与规范 — 例如 AS 2047、抗风等级
## 常见问题 — 客户常问的问题和您的回答</translation>
    </message>
    <message>
        <source>Saved in %1 (you can also edit it with any text editor).</source>
        <translation>保存在 %1（也可以用任何文本编辑器修改）。</translation>
    </message>
    <message>
        <source>Insert section headings</source>
        <translation>插入章节标题</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新载入</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>LLMSettingsPage</name>
    <message>
        <source>Fill in “%1” above first, then test.</source>
        <translation>请先在上面填写「%1」，再测试。</translation>
    </message>
    <message>
        <source>Testing… (a few small requests)</source>
        <translation>正在测试…（发几个小请求）</translation>
    </message>
    <message>
        <source>Other OpenAI-compatible server</source>
        <translation>其他 OpenAI 兼容服务器</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>Endpoint URL</source>
        <translation>服务地址</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Small model (classify)</source>
        <translation>小模型（分类）</translation>
    </message>
    <message>
        <source>Mid model (extract, draft, translate)</source>
        <translation>中模型（提取、起草、翻译）</translation>
    </message>
    <message>
        <source>Large model (assistant)</source>
        <translation>大模型（助手）</translation>
    </message>
    <message>
        <source>Parallel calls</source>
        <translation>并发调用数</translation>
    </message>
    <message>
        <source>No API key is needed.</source>
        <translation>不需要 API 密钥。</translation>
    </message>
    <message>
        <source>saved in %1 — leave empty to keep</source>
        <translation>已保存在%1——留空则保持不变</translation>
    </message>
    <message>
        <source>saved in the system keyring (or an owner-only file), never in settings</source>
        <translation>保存在系统密钥库（或仅您可读的本机文件）里，不写进设置文件</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
</context>
<context>
    <name>LinkGate</name>
    <message>
        <source>Open link</source>
        <translation>打开链接</translation>
    </message>
    <message>
        <source>Open this address in the browser?</source>
        <translation>要在浏览器中打开这个地址吗？请核对完整地址：</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>MailboxDialog</name>
    <message>
        <source>Connect a mailbox</source>
        <translation>连接邮箱</translation>
    </message>
</context>
<context>
    <name>MailboxSettingsPage</name>
    <message>
        <source>Enter the mail address and the app password first.</source>
        <translation>请先填写邮箱地址和授权码（应用密码）。</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Connected: %1. Fetching mail now (INBOX and Sent)…</source>
        <translation>已连接：%1。正在收取邮件（收件箱和已发送）…</translation>
    </message>
    <message>
        <source>SSL/TLS</source>
        <translation>SSL/TLS</translation>
    </message>
    <message>
        <source>STARTTLS</source>
        <translation>STARTTLS</translation>
    </message>
    <message>
        <source>Mail provider</source>
        <translation>邮箱服务商</translation>
    </message>
    <message>
        <source>Mail address</source>
        <translation>邮箱地址</translation>
    </message>
    <message>
        <source>App password</source>
        <translation>授权码（应用密码）</translation>
    </message>
    <message>
        <source>IMAP server</source>
        <translation>IMAP 服务器</translation>
    </message>
    <message>
        <source>SMTP server</source>
        <translation>SMTP 服务器</translation>
    </message>
    <message>
        <source>e.g. mail.example.com</source>
        <translation>例如 mail.example.com</translation>
    </message>
    <message>
        <source>not the web login password</source>
        <translation>不是网页登录密码</translation>
    </message>
    <message>
        <source>Test and save</source>
        <translation>测试并保存</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Inquiry</source>
        <translation>询盘</translation>
    </message>
    <message>
        <source>Microsoft sign-in needed — open Settings</source>
        <translation>需要登录微软账户——请打开设置</translation>
    </message>
    <message>
        <source>Sync problem (%1) — see the log</source>
        <translation>同步出现问题（%1）——请查看日志</translation>
    </message>
    <message>
        <source>Connected, fetching mail…</source>
        <translation>已连接，正在收取邮件…</translation>
    </message>
    <message numerus="yes">
        <source>%n mails wait for disk space — free up about %1</source>
        <translation>
            <numerusform>%n 封邮件因磁盘空间不足等待下载——请腾出约 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Sync paused</source>
        <translation>同步已暂停</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Awaiting approval</source>
        <translation>待审批</translation>
    </message>
    <message>
        <source>Demo data</source>
        <translation>示例数据</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>看板</translation>
    </message>
    <message>
        <source>Sync now</source>
        <translation>立即同步</translation>
    </message>
    <message>
        <source>Resume sync</source>
        <translation>恢复同步</translation>
    </message>
    <message>
        <source>Pause sync</source>
        <translation>暂停同步</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Evening briefing</source>
        <translation>今晚简报</translation>
    </message>
    <message>
        <source>Overview · cost and quality</source>
        <translation>概览 · 成本与质量</translation>
    </message>
    <message>
        <source>Welcome window</source>
        <translation>入门向导</translation>
    </message>
    <message>
        <source>More</source>
        <translation>更多</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Demo data — your real mailbox is untouched</source>
        <translation>示例数据——不会动您的真实邮箱</translation>
    </message>
</context>
<context>
    <name>Memory</name>
    <message>
        <source>Owner&apos;s preferences</source>
        <translation>老板偏好</translation>
    </message>
    <message>
        <source>Customer notes</source>
        <translation>客户备注</translation>
    </message>
    <message>
        <source>Business rules</source>
        <translation>业务规则</translation>
    </message>
    <message>
        <source>Experience</source>
        <translation>经验</translation>
    </message>
    <message>
        <source>computer</source>
        <translation>电脑</translation>
    </message>
    <message>
        <source>voice</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>Telegram</source>
        <translation>Telegram</translation>
    </message>
    <message>
        <source>assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <source>you</source>
        <translation>本人</translation>
    </message>
    <message>
        <source>forwarded on Telegram (not your words)</source>
        <translation>Telegram 转发（他人所说）</translation>
    </message>
    <message>
        <source>in use</source>
        <translation>使用中</translation>
    </message>
    <message>
        <source>proposed — confirm?</source>
        <translation>待确认</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>conversation (%1)</source>
        <translation>对话（%1）</translation>
    </message>
    <message>
        <source>not used yet</source>
        <translation>尚未用过</translation>
    </message>
    <message>
        <source>draft #%1</source>
        <translation>草稿 #%1</translation>
    </message>
    <message>
        <source>assistant (%1)</source>
        <translation>助手（%1）</translation>
    </message>
    <message>
        <source>until %1</source>
        <translation>至 %1</translation>
    </message>
    <message>
        <source>said %1 times</source>
        <translation>说过 %1 次</translation>
    </message>
</context>
<context>
    <name>MemoryButton</name>
    <message>
        <source>Assistant&apos;s memory…</source>
        <translation>助手的记忆…</translation>
    </message>
</context>
<context>
    <name>MemoryDialog</name>
    <message>
        <source>What the assistant remembers</source>
        <translation>助手记住的事</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>The assistant reads these in every conversation, and a customer&apos;s in his drafts. Proposed ones are not used until you confirm them; expired ones (past their day) and retired ones are kept but never used again.</source>
        <translation>助手每次对话都会读这些记忆，客户的记忆也会用在给他的草稿里。待确认的要您确认后才会使用；已过期的（日子已过）和已停用的会保留，但不再使用。</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Came from</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Last used in</source>
        <translation>最近用于</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Select a memory to edit its words</source>
        <translation>选中一条记忆即可修改内容</translation>
    </message>
    <message>
        <source>Save changes</source>
        <translation>保存修改</translation>
    </message>
    <message>
        <source>Retire</source>
        <translation>停用</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>确认</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>MessageCard</name>
    <message>
        <source>Translating…</source>
        <translation>翻译中…</translation>
    </message>
    <message>
        <source>We wrote to %1</source>
        <translation>我们发给 %1</translation>
    </message>
    <message>
        <source>From %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <source>Hide translation</source>
        <translation>隐藏翻译</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>New text only</source>
        <translation>只看新内容</translation>
    </message>
    <message>
        <source>Whole email</source>
        <translation>完整邮件</translation>
    </message>
</context>
<context>
    <name>ModelDownload</name>
    <message>
        <source>Import a Whisper model (zip)</source>
        <translation>导入 Whisper 模型（zip 压缩包）</translation>
    </message>
    <message>
        <source>Import a Whisper model folder</source>
        <translation>导入 Whisper 模型文件夹</translation>
    </message>
    <message>
        <source>Chinese needs another voice model</source>
        <translation>识别中文需要另一个语音模型</translation>
    </message>
    <message>
        <source>The current voice model only understands English, so nothing was inserted.

Download Whisper %1 (about %2, once) to dictate in Chinese and English? It is stored on this PC; dictation never leaves it.</source>
        <translation>当前语音模型只懂英文，所以没有插入任何文字。

要下载 Whisper %1（约 %2，只需一次），用中文和英文说话输入吗？模型保存在这台电脑上，语音不会离开这台电脑。</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Import from folder or zip…</source>
        <translation>从文件夹或 zip 导入…</translation>
    </message>
</context>
<context>
    <name>ModelDownloadDialog</name>
    <message>
        <source>Download the Chinese voice model</source>
        <translation>下载中文语音模型</translation>
    </message>
    <message>
        <source>Downloading Whisper %1 (about %2) from %3 …</source>
        <translation>正在从 %3 下载 Whisper %1（约 %2）…</translation>
    </message>
    <message>
        <source>Done. Whisper %1 is now used for dictation, in Chinese and English.</source>
        <translation>完成。现在说话输入使用 Whisper %1，可识别中文和英文。</translation>
    </message>
</context>
<context>
    <name>ModelWaiting</name>
    <message>
        <source>the model did not finish in time (a model on this PC is slow)</source>
        <translation>模型没有在规定时间内答完（本机模型较慢）</translation>
    </message>
    <message>
        <source>the AI service cannot be reached</source>
        <translation>连不上 AI 服务</translation>
    </message>
    <message>
        <source>the model&apos;s answers were not in the required form</source>
        <translation>模型的回答格式不对</translation>
    </message>
    <message>
        <source>the AI did not answer</source>
        <translation>AI 没有回答</translation>
    </message>
    <message>
        <source>Mails waiting for the AI: %1 — %2; they are retried on the next round</source>
        <translation>%1 封等待 AI：%2，下一轮会自动重试</translation>
    </message>
</context>
<context>
    <name>OwnerFilesCard</name>
    <message>
        <source>Files you added from this computer</source>
        <translation>您从本机添加的文件</translation>
    </message>
</context>
<context>
    <name>PendingDraftsView</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>To</source>
        <translation>收件人</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation>待审批</translation>
    </message>
    <message>
        <source>Approved, waiting to send</source>
        <translation>已批准，等待发送</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>正在发送…</translation>
    </message>
    <message>
        <source>Sending failed</source>
        <translation>发送失败</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>示例</translation>
    </message>
    <message numerus="yes">
        <source>%n unconfirmed</source>
        <translation>
            <numerusform>%n 项未经确认</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n draft(s) waiting for your approval</source>
        <translation>
            <numerusform>%n 封草稿等待您批准</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing is waiting for approval.</source>
        <translation>没有待审批的草稿。</translation>
    </message>
</context>
<context>
    <name>ProposalBar</name>
    <message>
        <source>Yes, mark ordered</source>
        <translation>确认，改为已下单</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>The customer accepted quote %1. Mark the job as ordered?</source>
        <translation>客户接受了报价 %1，改为已下单?</translation>
    </message>
    <message>
        <source>Customer&apos;s words: “%1”</source>
        <translation>客户原话：「%1」</translation>
    </message>
</context>
<context>
    <name>QuoteEditor</name>
    <message>
        <source>Row %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>Subtotal ex GST %1 · GST %2 · Total inc GST %3 · Deposit %4% %5</source>
        <translation>小计（不含 GST）%1 · GST %2 · 合计（含 GST）%3 · 定金 %4% %5</translation>
    </message>
    <message>
        <source>Quote</source>
        <translation>报价单</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>产品</translation>
    </message>
    <message>
        <source>Description (the customer reads it)</source>
        <translation>描述（客户看到的英文）</translation>
    </message>
    <message>
        <source>Width mm</source>
        <translation>宽（毫米）</translation>
    </message>
    <message>
        <source>Height mm</source>
        <translation>高（毫米）</translation>
    </message>
    <message>
        <source>Qty</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Unit price ex GST</source>
        <translation>单价（不含 GST）</translation>
    </message>
    <message>
        <source>Line ex GST</source>
        <translation>小计（不含 GST）</translation>
    </message>
    <message>
        <source>Add row</source>
        <translation>添加一行</translation>
    </message>
    <message>
        <source>Remove row</source>
        <translation>删除行</translation>
    </message>
    <message>
        <source>Make quote and draft the reply</source>
        <translation>生成报价并起草回复</translation>
    </message>
    <message>
        <source>The PDF goes with a reply draft; nothing is sent until you approve it</source>
        <translation>PDF 随回复草稿附上；您批准之前不会发送</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Preview in Chinese</source>
        <translation>中文预览</translation>
    </message>
    <message>
        <source>This quote as a PDF with Chinese labels, for you to check; the customer gets the English one</source>
        <translation>用中文标注的报价单 PDF，供您核对；客户收到的是英文版</translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <source>Mark as lost</source>
        <translation>标记流失</translation>
    </message>
    <message>
        <source>e.g. chose another supplier, price too high</source>
        <translation>例如：选了别家、价格太高</translation>
    </message>
    <message>
        <source>Why was this inquiry lost?</source>
        <translation>这条询盘为什么流失？</translation>
    </message>
</context>
<context>
    <name>Recorder</name>
    <message>
        <source>No microphone found. Connect a microphone or headset and try again.</source>
        <translation>没有找到麦克风，请连接麦克风或耳机后再试。</translation>
    </message>
    <message>
        <source>The microphone “%1” cannot be opened; another program may be using it, or access is not allowed.</source>
        <translation>无法打开麦克风“%1”：可能正被其他程序占用，或没有使用权限。</translation>
    </message>
    <message>
        <source>The microphone failed or was unplugged; recording stopped.</source>
        <translation>麦克风出错或已拔出，录音已停止。</translation>
    </message>
    <message>
        <source>Windows does not allow this app to use the microphone. Turn it on in Settings → Privacy &amp; security → Microphone.</source>
        <translation>Windows 不允许本程序使用麦克风。请在“设置 → 隐私和安全性 → 麦克风”中打开权限。</translation>
    </message>
    <message>
        <source>Allow microphone access in the system prompt, then try again.</source>
        <translation>请在系统弹出的窗口中允许使用麦克风，然后再试一次。</translation>
    </message>
    <message>
        <source>Too short — hold the button while you speak</source>
        <translation>录音太短：请按住按钮说话</translation>
    </message>
    <message>
        <source>No sound is coming from the microphone. Check that it is connected and that microphone access is allowed in the system privacy settings.</source>
        <translation>麦克风没有传来声音。请检查麦克风是否接好，以及系统隐私设置中是否允许使用麦克风。</translation>
    </message>
</context>
<context>
    <name>ReminderCard</name>
    <message>
        <source>Draft the follow-up</source>
        <translation>起草跟进邮件</translation>
    </message>
    <message>
        <source>Open the inquiry</source>
        <translation>打开询盘</translation>
    </message>
    <message numerus="yes">
        <source>Snooze %n day(s)</source>
        <translation>
            <numerusform>推迟 %n 天</numerusform>
        </translation>
    </message>
    <message>
        <source>Mark lost</source>
        <translation>标记流失</translation>
    </message>
    <message>
        <source>Snoozed until %1</source>
        <translation>已推迟到 %1</translation>
    </message>
    <message>
        <source>Marked lost</source>
        <translation>已标记为流失</translation>
    </message>
</context>
<context>
    <name>ReminderDialog</name>
    <message>
        <source>Follow-up reminder: %1</source>
        <translation>跟进提醒：%1</translation>
    </message>
</context>
<context>
    <name>Rhythm</name>
    <message>
        <source>Reply to the customer soon</source>
        <translation>尽快回复客户</translation>
    </message>
    <message>
        <source>Arrange the measure on site</source>
        <translation>安排上门量尺</translation>
    </message>
    <message>
        <source>Chase the factory&apos;s quote</source>
        <translation>跟进报价进度</translation>
    </message>
    <message>
        <source>Contact the customer again</source>
        <translation>建议重新联系客户</translation>
    </message>
    <message>
        <source>Check the factory has the order</source>
        <translation>确认工厂已收到订单</translation>
    </message>
    <message>
        <source>Check production progress</source>
        <translation>检查生产进度</translation>
    </message>
    <message>
        <source>Arrange the installation</source>
        <translation>安排安装时间</translation>
    </message>
    <message>
        <source>Follow it up</source>
        <translation>请跟进</translation>
    </message>
    <message>
        <source>%1 of %2 working days</source>
        <translation>%1/%2 个工作日</translation>
    </message>
    <message>
        <source>Low-confidence classification or extraction</source>
        <translation>分类/提取把握不大</translation>
    </message>
    <message>
        <source>Merged on the phone number alone</source>
        <translation>合并不确定（仅凭电话号码）</translation>
    </message>
    <message>
        <source>The model could not understand this email</source>
        <translation>模型没看懂这封邮件</translation>
    </message>
    <message>
        <source>Needs your confirmation</source>
        <translation>需要您确认</translation>
    </message>
    <message>
        <source>dddd d MMMM</source>
        <translation>M月d日 dddd</translation>
    </message>
</context>
<context>
    <name>RouteMap</name>
    <message>
        <source>%1 km</source>
        <translation>%1 公里</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>The endpoint URL must start with http:// or https://</source>
        <translation>服务地址必须以 http:// 或 https:// 开头</translation>
    </message>
    <message>
        <source>Not a mail address: %1</source>
        <translation>不是邮箱地址：%1</translation>
    </message>
    <message>
        <source>Nothing was saved: %1</source>
        <translation>没有保存任何设置：%1</translation>
    </message>
    <message>
        <source>The API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>The bot token</source>
        <translation>机器人令牌</translation>
    </message>
    <message>
        <source>%1 is saved in %2.</source>
        <translation>%1已保存到%2。</translation>
    </message>
    <message>
        <source>Settings saved.</source>
        <translation>设置已保存。</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Microsoft account</source>
        <translation>微软账户</translation>
    </message>
    <message>
        <source>AI model</source>
        <translation>AI 模型</translation>
    </message>
    <message>
        <source>Sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>Telegram</source>
        <translation>Telegram</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>General</source>
        <translation>通用</translation>
    </message>
    <message>
        <source>Other mailbox</source>
        <translation>其他邮箱</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>Check mail every (min)</source>
        <translation>检查邮件间隔（分钟）</translation>
    </message>
    <message>
        <source>Check OneDrive every (min)</source>
        <translation>检查 OneDrive 间隔（分钟）</translation>
    </message>
    <message>
        <source>First sync fetches (days)</source>
        <translation>首次同步天数</translation>
    </message>
    <message>
        <source>Quiet hours from</source>
        <translation>免打扰开始</translation>
    </message>
    <message>
        <source>Quiet hours until</source>
        <translation>免打扰结束</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Company name</source>
        <translation>公司名称</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>您的姓名</translation>
    </message>
    <message>
        <source>Signature</source>
        <translation>落款</translation>
    </message>
    <message>
        <source>Office address</source>
        <translation>办公室地址</translation>
    </message>
    <message>
        <source>Company mail addresses</source>
        <translation>公司邮箱地址</translation>
    </message>
    <message>
        <source>ABN (on quotes)</source>
        <translation>ABN（印在报价单上）</translation>
    </message>
    <message>
        <source>Company address (on quotes)</source>
        <translation>公司地址（印在报价单上）</translation>
    </message>
    <message>
        <source>Company phone (on quotes)</source>
        <translation>公司电话（印在报价单上）</translation>
    </message>
    <message>
        <source>Deposit on acceptance</source>
        <translation>接受报价时的定金</translation>
    </message>
    <message>
        <source>Pause sync</source>
        <translation>暂停同步</translation>
    </message>
    <message>
        <source>Start when I log in</source>
        <translation>开机登录时自动启动</translation>
    </message>
    <message>
        <source>Draft the first reply to each new inquiry (waits for my approval)</source>
        <translation>每封新询盘自动起草第一封回复（等我审批后才发送）</translation>
    </message>
    <message>
        <source>Mail from these addresses is ours, never a customer</source>
        <translation>来自这些地址的邮件是我们自己的，不算客户</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>确定</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
</context>
<context>
    <name>StageDialog</name>
    <message>
        <source>Advance stage</source>
        <translation>推进阶段</translation>
    </message>
    <message>
        <source>e.g. measured on site, quote sent</source>
        <translation>例如：已上门量尺、报价已发</translation>
    </message>
    <message>
        <source>Current stage</source>
        <translation>当前阶段</translation>
    </message>
    <message>
        <source>New stage</source>
        <translation>新阶段</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>StatsWindow</name>
    <message>
        <source>Pipeline value %1 · quotes sent this week %2 (%3), this month %4 (%5) · won this week %6 (%7), this month %8 (%9) · win rate %10</source>
        <translation>在谈金额 %1 · 本周发出报价 %2 份（%3），本月 %4 份（%5） · 本周成交 %6 份（%7），本月 %8 份（%9） · 成交率 %10</translation>
    </message>
    <message>
        <source>No quotes yet</source>
        <translation>还没有报价</translation>
    </message>
    <message>
        <source>Pipeline value by stage (current quotes, inc GST, AUD)</source>
        <translation>各阶段在谈金额（当前报价，含 GST，澳元）</translation>
    </message>
    <message>
        <source>Nothing in this period yet</source>
        <translation>这段时间还没有数据</translation>
    </message>
    <message>
        <source>New inquiries per week (from Monday)</source>
        <translation>每周新询盘（按周一标注）</translation>
    </message>
    <message>
        <source>First reply (median hours) per week</source>
        <translation>每周首次回复时间（中位数，小时）</translation>
    </message>
    <message>
        <source>Per month: inquiries → measured → quoted → ordered</source>
        <translation>每月：询盘 → 量尺 → 报价 → 下单</translation>
    </message>
    <message>
        <source>Inquiries</source>
        <translation>询盘</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>已量尺</translation>
    </message>
    <message>
        <source>Quoted</source>
        <translation>已报价</translation>
    </message>
    <message>
        <source>Ordered</source>
        <translation>已下单</translation>
    </message>
    <message>
        <source>Working days spent in each stage (average)</source>
        <translation>各阶段平均停留（工作日）</translation>
    </message>
    <message>
        <source>AI calls: %1 (failed %2) · estimated cost %3 · new inquiries %4 · per inquiry %5</source>
        <translation>AI 调用 %1 次（失败 %2）· 估算费用 %3 · 新询盘 %4 个 · 每个询盘 %5</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Tokens in / out</source>
        <translation>词元（输入 / 输出）</translation>
    </message>
    <message>
        <source>Week</source>
        <translation>周</translation>
    </message>
    <message>
        <source>Tier %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Tier / purpose</source>
        <translation>层级 / 用途</translation>
    </message>
    <message>
        <source>Classes you changed</source>
        <translation>您改的分类</translation>
    </message>
    <message>
        <source>Fields you edited</source>
        <translation>您改的字段</translation>
    </message>
    <message>
        <source>Drafts approved</source>
        <translation>批准的草稿</translation>
    </message>
    <message>
        <source>Rewritten before approval</source>
        <translation>批准前改写</translation>
    </message>
    <message>
        <source>Share of text changed</source>
        <translation>改动比例</translation>
    </message>
    <message>
        <source>Classify mail</source>
        <translation>邮件分类</translation>
    </message>
    <message>
        <source>Extract fields</source>
        <translation>提取信息</translation>
    </message>
    <message>
        <source>Write drafts</source>
        <translation>起草回复</translation>
    </message>
    <message>
        <source>Revise drafts</source>
        <translation>修改草稿</translation>
    </message>
    <message>
        <source>Chinese rendering of drafts</source>
        <translation>草稿中文译文</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Summarise conversations</source>
        <translation>对话摘要</translation>
    </message>
    <message>
        <source>Memories from conversations</source>
        <translation>对话中的记忆</translation>
    </message>
    <message>
        <source>Overview · cost and quality</source>
        <translation>概览 · 成本与质量</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Cost and quality</source>
        <translation>成本与质量</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Accuracy from your corrections, per week</source>
        <translation>按您的修改统计的准确度（每周）</translation>
    </message>
</context>
<context>
    <name>TelegramSettingsPage</name>
    <message>
        <source>The bot token looks wrong: BotFather&apos;s tokens look like 123456789:AA…</source>
        <translation>机器人令牌格式不对：BotFather 给的令牌形如 123456789:AA…</translation>
    </message>
    <message>
        <source>Set by INQUIRY_BRIDGE_TELEGRAM_TOKEN</source>
        <translation>由环境变量 INQUIRY_BRIDGE_TELEGRAM_TOKEN 设置</translation>
    </message>
    <message>
        <source>Saved in the system keyring (type to replace)</source>
        <translation>已保存在系统密钥库中（输入新令牌可替换）</translation>
    </message>
    <message>
        <source>Paste the token from @BotFather</source>
        <translation>粘贴 @BotFather 给你的令牌</translation>
    </message>
    <message>
        <source>Send /start %1 to your bot from your phone. Valid until %2, single use.</source>
        <translation>用手机给你的机器人发送 /start %1。有效至 %2，只能使用一次。</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Press New code, then send /start CODE to your bot.</source>
        <translation>请按「生成配对码」，再给机器人发送 /start 配对码。</translation>
    </message>
    <message>
        <source>Not paired</source>
        <translation>尚未配对</translation>
    </message>
    <message>
        <source>Group %1 (set by INQUIRY_BRIDGE_TELEGRAM_CHAT_ID): buttons work only after you send /start CODE in that group.</source>
        <translation>群组 %1（由环境变量 INQUIRY_BRIDGE_TELEGRAM_CHAT_ID 设置）：你本人在该群里发送 /start 配对码后，按钮才有效。</translation>
    </message>
    <message>
        <source>Chat %1 (set by INQUIRY_BRIDGE_TELEGRAM_CHAT_ID)</source>
        <translation>聊天 %1（由环境变量 INQUIRY_BRIDGE_TELEGRAM_CHAT_ID 设置）</translation>
    </message>
    <message>
        <source>%1chat %2</source>
        <translation>%1聊天 %2</translation>
    </message>
    <message>
        <source>Checking the token…</source>
        <translation>正在检查令牌…</translation>
    </message>
    <message>
        <source>Token works (bot @%1).</source>
        <translation>令牌有效（机器人 @%1）。</translation>
    </message>
    <message>
        <source>Telegram rejected this token. Copy it again from @BotFather.</source>
        <translation>Telegram 不接受这个令牌，请从 @BotFather 重新复制。</translation>
    </message>
    <message>
        <source>Cannot reach Telegram. Check the network and try again.</source>
        <translation>无法连接 Telegram，请检查网络后重试。</translation>
    </message>
    <message>
        <source>Telegram answered with an error. Try again later.</source>
        <translation>Telegram 返回错误，请稍后再试。</translation>
    </message>
    <message>
        <source>Enter the bot token first.</source>
        <translation>请先输入机器人令牌。</translation>
    </message>
    <message>
        <source>Off: alerts only appear on this computer.</source>
        <translation>已关闭：提醒只显示在这台电脑上。</translation>
    </message>
    <message>
        <source>Not set up: paste the bot token.</source>
        <translation>尚未设置：请粘贴机器人令牌。</translation>
    </message>
    <message>
        <source>Waiting for pairing: send /start CODE to your bot.</source>
        <translation>等待配对：请给机器人发送 /start 配对码。</translation>
    </message>
    <message>
        <source>On: alerts are also sent to your Telegram.</source>
        <translation>已开启：提醒也会发到你的 Telegram。</translation>
    </message>
    <message>
        <source>Telegram alerts and approvals</source>
        <translation>Telegram 提醒与审批</translation>
    </message>
    <message>
        <source>Get alerts on your phone and approve drafts with a button. In Telegram, open @BotFather, send /newbot and follow the steps; paste the token it gives you below. Then press New code and send /start CODE to your new bot. Only that chat is trusted; typed words never send an email.</source>
        <translation>在手机上接收提醒，并用按钮审批草稿。在 Telegram 中打开 @BotFather，发送 /newbot 并按提示操作，把它给你的令牌粘贴到下面。然后按「生成配对码」，给新机器人发送 /start 配对码。只有这个聊天被信任；打字不会发送任何邮件。</translation>
    </message>
    <message>
        <source>Send alerts to Telegram</source>
        <translation>把提醒发到 Telegram</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>New code</source>
        <translation>生成配对码</translation>
    </message>
    <message>
        <source>Unpair</source>
        <translation>解除配对</translation>
    </message>
    <message>
        <source>Bot token</source>
        <translation>机器人令牌</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Pairing code</source>
        <translation>配对码</translation>
    </message>
    <message>
        <source>Paired chat</source>
        <translation>已配对的聊天</translation>
    </message>
</context>
<context>
    <name>TrayController</name>
    <message>
        <source>Background work is not running</source>
        <translation>后台未运行</translation>
    </message>
    <message>
        <source>Background work runs on this computer</source>
        <translation>后台在本机运行</translation>
    </message>
    <message>
        <source>Background work runs on %1</source>
        <translation>后台在 %1 运行</translation>
    </message>
    <message>
        <source>Inquiry Bridge</source>
        <translation>询盘桥</translation>
    </message>
    <message numerus="yes">
        <source>%n inquiries need you</source>
        <translation>
            <numerusform>%n 条询盘需要您处理</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing needs you right now</source>
        <translation>目前没有需要您处理的事</translation>
    </message>
    <message>
        <source>Open board</source>
        <translation>打开看板</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Resume sync</source>
        <translation>恢复同步</translation>
    </message>
    <message>
        <source>Pause sync</source>
        <translation>暂停同步</translation>
    </message>
    <message>
        <source>Sync now</source>
        <translation>立即同步</translation>
    </message>
    <message>
        <source>Evening briefing</source>
        <translation>今晚简报</translation>
    </message>
    <message>
        <source>Overview · cost and quality</source>
        <translation>概览 · 成本与质量</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Welcome window</source>
        <translation>入门向导</translation>
    </message>
    <message>
        <source>Leave the demo</source>
        <translation>退出示例</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>VisitDialog</name>
    <message>
        <source>Looking at your calendar…</source>
        <translation>正在查看您的日历…</translation>
    </message>
    <message>
        <source>Already booked for %1; nothing was booked twice.</source>
        <translation>已约好 %1，未重复预约。</translation>
    </message>
    <message>
        <source>It is in your Outlook calendar.</source>
        <translation>已写入 Outlook 日历。</translation>
    </message>
    <message>
        <source>It is in the app&apos;s calendar.</source>
        <translation>已记入询盘桥的日历。</translation>
    </message>
    <message>
        <source>Booked: %1.</source>
        <translation>已约好：%1。</translation>
    </message>
    <message>
        <source>The confirmation email to the customer waits in Approvals (draft #%1).</source>
        <translation>给客户的确认邮件在待审批中等您批准（草稿 #%1）。</translation>
    </message>
    <message>
        <source>Mon</source>
        <translation>周一</translation>
    </message>
    <message>
        <source>Tue</source>
        <translation>周二</translation>
    </message>
    <message>
        <source>Wed</source>
        <translation>周三</translation>
    </message>
    <message>
        <source>Thu</source>
        <translation>周四</translation>
    </message>
    <message>
        <source>Fri</source>
        <translation>周五</translation>
    </message>
    <message>
        <source>Sat</source>
        <translation>周六</translation>
    </message>
    <message>
        <source>Sun</source>
        <translation>周日</translation>
    </message>
    <message>
        <source>%1 (%2) %3</source>
        <translation>%1（%2）%3</translation>
    </message>
    <message>
        <source>Measure visit</source>
        <translation>上门量尺</translation>
    </message>
    <message>
        <source>Free times in your calendar (working days, with time to drive). Choose one and confirm: the visit is booked and a confirmation email waits for your approval.</source>
        <translation>以下是您日历中的空档（工作日，已留出路上时间）。选一个并确认：即预约上门，给客户的确认邮件会等您批准。</translation>
    </message>
    <message>
        <source>Find free times</source>
        <translation>重新找空档</translation>
    </message>
    <message>
        <source>Confirm this time</source>
        <translation>确认这个时间</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>VoiceSettingsPage</name>
    <message>
        <source>Choose a Whisper model folder</source>
        <translation>选择 Whisper 模型文件夹</translation>
    </message>
    <message>
        <source>No microphone found. Connect a microphone or headset.</source>
        <translation>没有找到麦克风，请连接麦克风或耳机。</translation>
    </message>
    <message numerus="yes">
        <source>%n microphone(s): </source>
        <translation>
            <numerusform>%n 个麦克风：</numerusform>
        </translation>
    </message>
    <message>
        <source>In use: %1</source>
        <translation>正在使用：%1</translation>
    </message>
    <message>
        <source>set by the environment variable %1</source>
        <translation>由环境变量 %1 指定</translation>
    </message>
    <message>
        <source>chosen in these settings</source>
        <translation>在此设置中选择</translation>
    </message>
    <message>
        <source>bundled with the app</source>
        <translation>程序自带</translation>
    </message>
    <message>
        <source>Active model: Whisper %1 (%2)</source>
        <translation>当前模型：Whisper %1（%2）</translation>
    </message>
    <message>
        <source>Languages: %1</source>
        <translation>识别语言：%1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Chinese (Mandarin), English and other languages</source>
        <translation>中文普通话、英文及其他语言</translation>
    </message>
    <message>
        <source>English only — Chinese speech cannot be recognised</source>
        <translation>仅英文，无法识别中文</translation>
    </message>
    <message>
        <source>Empty: the bundled model is used.</source>
        <translation>留空：使用程序自带的模型。</translation>
    </message>
    <message>
        <source>Voice dictation (local, nothing leaves this PC)</source>
        <translation>语音输入（在本机识别，录音不会离开这台电脑）</translation>
    </message>
    <message>
        <source>Size: %1</source>
        <translation>大小：%1</translation>
    </message>
    <message>
        <source>Whisper model found. Languages: %1</source>
        <translation>已找到 Whisper 模型。语言：%1</translation>
    </message>
    <message>
        <source>To dictate in Chinese you need a multilingual Whisper model, %1 (about %2). Press “Download” once (if huggingface.co is slow or blocked, type a mirror such as https://hf-mirror.com below first), or bring the model on a USB stick as a folder or zip and press “Import”. The app never downloads models by itself, only when you press Download.</source>
        <translation>要用中文说话输入，需要多语言 Whisper 模型 %1（约 %2）。点一次“下载”即可（如果 huggingface.co 很慢或无法访问，请先在下面填写镜像地址，例如 https://hf-mirror.com）；也可以用U盘把模型文件夹或 zip 拷过来，再点“导入”。程序不会自行下载模型，只在你点“下载”时才下载。</translation>
    </message>
    <message>
        <source>Download %1 (about %2)</source>
        <translation>下载 %1（约 %2）</translation>
    </message>
    <message>
        <source>Import from folder or zip…</source>
        <translation>从文件夹或 zip 导入…</translation>
    </message>
    <message>
        <source>Download mirror</source>
        <translation>下载镜像</translation>
    </message>
    <message>
        <source>Empty = huggingface.co</source>
        <translation>留空 = huggingface.co</translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <source>Spoken language</source>
        <translation>说话语言</translation>
    </message>
    <message>
        <source>Longest recording</source>
        <translation>最长录音</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>运行设备</translation>
    </message>
    <message>
        <source>Compute type</source>
        <translation>计算精度</translation>
    </message>
    <message>
        <source>Microphone</source>
        <translation>麦克风</translation>
    </message>
    <message>
        <source>Empty = the bundled English model</source>
        <translation>留空 = 使用自带的英文模型</translation>
    </message>
    <message>
        <source>Set by the environment variable %1; change it there.</source>
        <translation>由环境变量 %1 指定，请在那里修改。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览……</translation>
    </message>
    <message>
        <source>Use bundled</source>
        <translation>用自带模型</translation>
    </message>
    <message>
        <source>Automatic (Chinese or English)</source>
        <translation>自动（中文或英文）</translation>
    </message>
    <message>
        <source>Chinese (Mandarin, written in Simplified characters)</source>
        <translation>中文普通话（输出简体字）</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>This computer&apos;s processor (works everywhere)</source>
        <translation>本机处理器（任何电脑都可用）</translation>
    </message>
    <message>
        <source>NVIDIA graphics card</source>
        <translation>NVIDIA 显卡</translation>
    </message>
    <message>
        <source>8-bit integers (fastest on a normal computer)</source>
        <translation>8 位整数（普通电脑上最快）</translation>
    </message>
    <message>
        <source>8-bit integers and 16-bit floats (graphics card)</source>
        <translation>8 位整数 + 16 位浮点（显卡）</translation>
    </message>
    <message>
        <source>16-bit floats (graphics card)</source>
        <translation>16 位浮点（显卡）</translation>
    </message>
    <message>
        <source>32-bit floats (most exact, slowest)</source>
        <translation>32 位浮点（最精确，最慢）</translation>
    </message>
    <message>
        <source>Check microphone</source>
        <translation>检测麦克风</translation>
    </message>
</context>
</TS>
