; Inno Setup script: wraps dist\InquiryBridge\ (from installer/build.py) into a per-user setup.exe.
; Per-user install: no admin rights needed; data stays in %LOCALAPPDATA%\InquiryBridge.
#define AppVersion "0.1.0"

[Setup]
AppId={{6B1C9E2A-6F0D-4C7B-9A53-7D1E2B4F8A10}
AppName=询盘桥 Inquiry Bridge
AppVersion={#AppVersion}
AppPublisher=Aurora Windows & Doors
DefaultDirName={localappdata}\Programs\InquiryBridge
DefaultGroupName=询盘桥 Inquiry Bridge
PrivilegesRequired=lowest
OutputBaseFilename=InquiryBridge-Setup-{#AppVersion}
Compression=lzma2
SolidCompression=yes
WizardStyle=modern

[Languages]
Name: "chinesesimplified"; MessagesFile: "compiler:Languages\ChineseSimplified.isl"
Name: "english"; MessagesFile: "compiler:Default.isl"

[Files]
Source: "..\dist\InquiryBridge\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\询盘桥 Inquiry Bridge"; Filename: "{app}\InquiryBridge.exe"
Name: "{userstartup}\询盘桥 Inquiry Bridge"; Filename: "{app}\InquiryBridge.exe"; Tasks: autostart

[Tasks]
Name: "autostart"; Description: "开机自动启动 / Start at login"; Flags: unchecked

[Run]
Filename: "{app}\InquiryBridge.exe"; Description: "启动询盘桥 / Launch Inquiry Bridge"; Flags: nowait postinstall skipifsilent
