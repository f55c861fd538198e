; Inno Setup 6 script: wraps dist\InquiryBridge\ (from installer/build.py) into a per-user setup.exe.
;
;   iscc /DAppVersion=0.1.0 installer\inquiry_bridge.iss
;   (the version: `python installer\version_info.py --version`, from pyproject.toml; Inno Setup 6.3+)
;
; - Per user, no admin rights: PrivilegesRequired=lowest installs into
;   %LOCALAPPDATA%\Programs\InquiryBridge and writes only HKCU.
; - Start at login is offered as a task (a shortcut in the user's Startup folder), off by default.
; - The data folder (%LOCALAPPDATA%\InquiryBridge: database, mail, logs, token cache, settings) is
;   never part of [Files], so an upgrade does not touch it and an uninstall leaves it, unless the
;   owner ticks "delete my data" on the uninstaller's last question (asked in [Code] below).
; - A multilingual voice model (CTranslate2 Whisper folder) placed in resources\models\<name>\
;   before building is bundled by PyInstaller with the rest of resources\; the "voice" component
;   below installs it and is shown only when the build has one.
;
; Saved as UTF-8 with a BOM: without one Inno Setup reads the Chinese strings as ANSI.
; Unverified: no Windows machine was available where this was written (see installer/README.md).
; If the compiler lacks Languages\ChineseSimplified.isl (older 6.x keep it under Unofficial\),
; copy it there from the Inno Setup translations page.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppExe "InquiryBridge.exe"
#define Bundle AddBackslash(SourcePath) + "..\dist\InquiryBridge"
#define ModelsDir Bundle + "\_internal\resources\models"
#if DirExists(ModelsDir)
  #define HasVoiceModel
#endif

[Setup]
AppId={{6B1C9E2A-6F0D-4C7B-9A53-7D1E2B4F8A10}
AppName=询盘桥 Inquiry Bridge
AppVersion={#AppVersion}
AppVerName=询盘桥 Inquiry Bridge {#AppVersion}
AppPublisher=Aurora Windows & Doors
VersionInfoVersion={#AppVersion}
DefaultDirName={localappdata}\Programs\InquiryBridge
DefaultGroupName=询盘桥 Inquiry Bridge
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\dist
OutputBaseFilename=InquiryBridge-Setup-{#AppVersion}
SetupIconFile=..\resources\icons\app.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName=询盘桥 Inquiry Bridge
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; an upgrade closes the running tray app first (it holds files in {app}), then restarts it
CloseApplications=yes
RestartApplications=yes

[Languages]
Name: "chinesesimplified"; MessagesFile: "compiler:Languages\ChineseSimplified.isl"
Name: "english"; MessagesFile: "compiler:Default.isl"

[CustomMessages]
chinesesimplified.AutoStart=开机时自动启动询盘桥
english.AutoStart=Start Inquiry Bridge when I sign in to Windows
chinesesimplified.Launch=启动询盘桥
english.Launch=Launch Inquiry Bridge
chinesesimplified.AppComponent=询盘桥（必需）
english.AppComponent=Inquiry Bridge (required)
chinesesimplified.VoiceComponent=中文语音识别模型（多语言，可识别普通话）
english.VoiceComponent=Chinese voice model (multilingual, understands Mandarin)
chinesesimplified.DeleteData=是否同时删除你的数据？%n%n数据文件夹：%1%n（询盘、邮件、草稿、设置和登录信息）%n%n选“否”会保留数据，以后重新安装可以继续使用。
english.DeleteData=Also delete my data?%n%nData folder: %1%n(inquiries, mail, drafts, settings and sign-in)%n%nChoose No to keep it for a later reinstall.

[Types]
Name: "full"; Description: "{cm:AppComponent}"; Flags: iscustom

[Components]
Name: "app"; Description: "{cm:AppComponent}"; Types: full; Flags: fixed
#ifdef HasVoiceModel
Name: "voice"; Description: "{cm:VoiceComponent}"; Types: full
#endif

[Tasks]
Name: "autostart"; Description: "{cm:AutoStart}"; Flags: unchecked

[Files]
Source: "{#Bundle}\*"; DestDir: "{app}"; Excludes: "\_internal\resources\models"; \
  Flags: recursesubdirs createallsubdirs ignoreversion; Components: app
#ifdef HasVoiceModel
Source: "{#ModelsDir}\*"; DestDir: "{app}\_internal\resources\models"; \
  Flags: recursesubdirs createallsubdirs ignoreversion; Components: voice
#endif

[InstallDelete]
; an upgrade replaces the program folder's contents (stale libraries of an older build would
; otherwise linger); the data folder lives elsewhere and is not touched
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{autoprograms}\询盘桥 Inquiry Bridge"; Filename: "{app}\{#AppExe}"
Name: "{userstartup}\询盘桥 Inquiry Bridge"; Filename: "{app}\{#AppExe}"; Tasks: autostart

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:Launch}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; files the app itself writes inside {app} (none expected; the data folder is separate)
Type: dirifempty; Name: "{app}"

[Code]
function DataFolder(): String;
begin
  { the app's default data folder (core/paths.py: platformdirs user_data_dir, no author) }
  Result := ExpandConstant('{localappdata}\InquiryBridge');
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  Folder: String;
begin
  if CurUninstallStep <> usPostUninstall then
    Exit;
  Folder := DataFolder();
  if not DirExists(Folder) then
    Exit;
  { silent uninstalls (and upgrades run by a newer setup) always keep the data }
  if UninstallSilent() then
    Exit;
  if MsgBox(FmtMessage(CustomMessage('DeleteData'), [Folder]), mbConfirmation,
            MB_YESNO or MB_DEFBUTTON2) = IDYES then
  begin
    DelTree(Folder, True, True, True);
    { the demo data set lives beside it (core/paths.py: <data folder>-demo) }
    DelTree(Folder + '-demo', True, True, True);
  end;
end;
